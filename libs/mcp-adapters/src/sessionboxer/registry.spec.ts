import { z } from 'zod';
import { controlPlaneTools, findSessionboxerTool, sessionboxerTools } from './registry';

// The spec's "This session" and "Self-knowledge" tools, this release (the e2e tools have
// their own registry: libs/mcp-adapters/src/e2e).
const SPEC_NAMES = [
  'whoami',
  'docs',
  'settings_get',
  'pr_attach',
  'pr_list',
  'pr_items',
  'pr_mark_addressed',
  'snapshot',
  'queue_add',
  'queue_list',
  'title_set',
  'verify',
  'notify',
  'terminal_list',
  'terminal_read',
  'ui_open',
  // Other sessions (policy All Sessions).
  'sessions_list',
  'session_get',
  'session_create',
  'session_fork',
  'session_message',
  'session_wait',
  'session_stop',
  'approval_wait',
  'schedule_create',
  'schedule_list',
];

describe('the sessionboxer registry', () => {
  it('holds exactly the 26 tools of this release, each once', () => {
    expect(sessionboxerTools.map((t) => t.name)).toEqual(SPEC_NAMES);
  });

  it('answers docs in the box and everything else on the control plane', () => {
    expect(sessionboxerTools.filter((t) => t.route === 'box').map((t) => t.name)).toEqual(['docs']);
    expect(controlPlaneTools).toHaveLength(25);
    expect(findSessionboxerTool('docs')?.route).toBe('box');
    expect(findSessionboxerTool('nope')).toBeUndefined();
  });

  it.each(SPEC_NAMES)('%s has a title, a description and every annotation', (name) => {
    const tool = findSessionboxerTool(name);
    expect(tool?.title).toMatch(/\w/);
    expect(tool?.description.length).toBeGreaterThan(80);
    const { readOnlyHint, destructiveHint, idempotentHint } = tool?.annotations ?? {};
    expect([readOnlyHint, destructiveHint, idempotentHint].map((h) => typeof h)).toEqual([
      'boolean',
      'boolean',
      'boolean',
    ]);
    // Only stopping another session destroys something (it can be resumed, but a turn is lost).
    expect(destructiveHint).toBe(name === 'session_stop');
  });

  it('marks what only reads as read-only and what acts as not', () => {
    const readOnly = sessionboxerTools.filter((t) => t.annotations.readOnlyHint).map((t) => t.name);
    expect(readOnly.sort()).toEqual(
      [
        'whoami',
        'docs',
        'settings_get',
        'pr_list',
        'pr_items',
        'queue_list',
        'terminal_list',
        'terminal_read',
        'sessions_list',
        'session_get',
        'session_wait',
        'approval_wait',
        'schedule_list',
      ].sort(),
    );
  });

  it('has input shapes that zod can build an object from (what the SDK and gateway do)', () => {
    for (const tool of sessionboxerTools) {
      expect(() => z.object(tool.input)).not.toThrow();
    }
  });
});
