import { policyRefusal, toolScope } from './policy';
import { sessionboxerTools } from './registry';

describe('the sessionboxer policy', () => {
  it('lets self-knowledge through whatever the policy', () => {
    for (const tool of ['whoami', 'docs', 'settings_get']) {
      expect(policyRefusal(tool, { agentTools: 'off', source: 'global' })).toBeNull();
    }
  });

  it('refuses every acting tool under Off, naming the setting and where it is set', () => {
    const acting = sessionboxerTools.map((t) => t.name).filter((n) => toolScope(n) !== 'self');
    expect(acting).toContain('title_set');
    for (const tool of acting) {
      const why = policyRefusal(tool, { agentTools: 'off', source: 'session' });
      expect(why).toMatch(new RegExp(`^${tool} is not allowed: the sessionboxer policy is Off`));
      expect(why).toMatch(/agentTools: off, set in this session's settings/);
    }
    expect(policyRefusal('notify', { agentTools: 'off', source: 'global' })).toMatch(
      /set in Global settings → MCP & connectors → sessionboxer/,
    );
  });

  it('allows own-session tools under This Session only, and other sessions only under All', () => {
    const session = { agentTools: 'session' as const, source: 'global' as const };
    expect(policyRefusal('title_set', session)).toBeNull();
    expect(policyRefusal('queue_add', session)).toBeNull();
    expect(policyRefusal('session_create', session)).toMatch(/it needs All Sessions/);
    expect(policyRefusal('session_create', { agentTools: 'all', source: 'global' })).toBeNull();
  });
});
