import * as fs from 'node:fs';
import { waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';
import { conversation, script, turnFinished } from './agent/agent-kit';

/** The sessionboxer policy, as a session's agent meets it through its box's real MCP server. */
describe('the sessionboxer policy', () => {
  let api: RunningApp;
  let id: string;

  const results = async (turn: number) =>
    (await conversation(api, id)).events.filter(
      (e: any) => e.turn === turn && e.type === 'tool_result',
    );

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    id = (await api.request('POST', '/api/sessions', { title: 'Policed', provider: 'scripted' }))
      .body.id;
    await waitForBox(api, id);
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('follows the global default until the session sets its own', async () => {
    const policy = await api.request('GET', `/api/sessions/${id}/policy`);
    expect(policy.body).toEqual({
      own: { agentTools: null, sessionCreation: null },
      effective: {
        agentTools: 'session',
        sessionCreation: 'ask',
        source: { agentTools: 'global', sessionCreation: 'global' },
      },
    });
    const bad = await api.request('PATCH', `/api/sessions/${id}/policy`, {
      agentTools: 'sometimes',
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/agentTools/);
  });

  it('applies a change at the next turn: the running turn keeps the policy it started with', async () => {
    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script(
        { sleep: 1.5 },
        { call: 'sessionboxer.title_set', args: { title: 'Renamed in turn 1' } },
      ),
    });
    await waitFor(
      'turn 1 to run',
      async () => (await conversation(api, id)).conversation?.currentTurn === 1,
    );
    const off = await api.request('PATCH', `/api/sessions/${id}/policy`, { agentTools: 'off' });
    expect(off.body.effective).toMatchObject({
      agentTools: 'off',
      source: { agentTools: 'session' },
    });
    await turnFinished(api, id, 1);
    expect((await results(1))[0]).toMatchObject({ error: false });

    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script(
        { call: 'sessionboxer.title_set', args: { title: 'Refused' } },
        { call: 'sessionboxer.whoami' },
      ),
    });
    await turnFinished(api, id, 2);
    const [refused, whoami] = await results(2);
    expect(refused.error).toBe(true);
    expect(refused.output).toMatch(
      /title_set is not allowed: the sessionboxer policy is Off \(agentTools: off, set in this session's settings/,
    );
    expect(whoami.error).toBe(false);
    expect(JSON.parse(whoami.output).agentTools).toBe('off');
    expect((await api.request('GET', `/api/sessions/${id}`)).body.title).toBe('Renamed in turn 1');
  });

  it('names Global settings when the refusal comes from the global default', async () => {
    await api.request('PATCH', `/api/sessions/${id}/policy`, { agentTools: null });
    await api.request('PATCH', '/api/settings', { sessionboxer: { agentTools: 'off' } });
    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script({ call: 'sessionboxer.notify', args: { text: 'hello' } }),
    });
    await turnFinished(api, id, 3);
    const [refused] = await results(3);
    expect(refused.output).toMatch(/set in Global settings → MCP & connectors → sessionboxer/);
    const bell = (await api.request('GET', `/api/sessions/${id}/notifications`)).body;
    expect(bell.notifications).toEqual([]);
  });

  it('settings_get shows the policy in force for this session, not the global one', async () => {
    // Global: Off and Ask me (the test before set Off); this session: All Sessions, Do not ask.
    await api.request('PATCH', `/api/sessions/${id}/policy`, {
      agentTools: 'all',
      sessionCreation: 'dont_ask',
    });
    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script({ call: 'sessionboxer.settings_get' }),
    });
    await turnFinished(api, id, 4);
    const [got] = await results(4);
    expect(got.error).toBe(false);
    expect(JSON.parse(got.output).sessionboxer).toMatchObject({
      agentTools: 'all',
      sessionCreation: 'dont_ask',
    });
    const global = (await api.request('GET', '/api/settings')).body.settings.sessionboxer;
    expect(global).toMatchObject({ agentTools: 'off', sessionCreation: 'ask' });
  });
});
