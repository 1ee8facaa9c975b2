import { say, use } from '../doubles/model-provider/model-provider-double';
import { conversation, shape, transcript, turnFinished } from './agent-kit';
import { boxEnvirons } from './box-secrets-kit';
import {
  allEvents,
  carriesToolResult,
  expectKeyOnlyAtTheDouble,
  LIST_BOX_ENVIRONS,
  readySession,
  realKey,
  startRealAgentWorld,
  type RealAgentWorld,
} from './real-agent-kit';

/**
 * The real OpenCode (the project's node_modules/.bin/opencode, seen read-only in the box) runs a
 * turn in a real bubblewrap box, its anthropic provider pointed at the box's edge, whose
 * Anthropic relay adds the real key and forwards to the model-provider double. (OpenCode's
 * openai provider speaks the Responses API, which the double does not: the anthropic one is
 * used.) Its title request is answered by the double as a side request.
 */
describe('a turn of the real OpenCode in a box', () => {
  const KEY = realKey('Oc7');
  let world: RealAgentWorld;
  let id: string;

  beforeAll(async () => {
    world = await startRealAgentWorld(KEY);
    id = await readySession(world.api, 'opencode', 'OpenCode at work');
  });
  afterAll(() => world?.close());

  it('calls sessionboxer_title_set and answers; the key reaches the double only', async () => {
    const { api, double } = world;
    double.play([
      [
        say('Reading what my box holds, then naming the session.'),
        use('bash', { command: LIST_BOX_ENVIRONS, description: 'List every environment' }),
      ],
      [use('sessionboxer_title_set', { title: 'Named by OpenCode' })],
      [say('Done: the session is named.')],
    ]);
    const sent = await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: 'Name this session',
    });
    expect(sent.status).toBe(202);
    // While the CLI runs (its bash result has come back): what the box's processes hold.
    await double.next((r) => r.kind === 'main' && carriesToolResult(r.body));
    const environs = await boxEnvirons(api, id);

    const finished = await turnFinished(api, id, 1, 90_000);
    expect(finished.status).toBe('finished');
    const { events } = await conversation(api, id);
    const calls = events.filter((e: any) => e.type === 'tool_call');
    expect(calls.map((c: any) => c.name)).toEqual(['bash', 'sessionboxer_title_set']);
    const results = events.filter((e: any) => e.type === 'tool_result');
    expect(results.map((r: any) => r.error)).toEqual([false, false]);
    expect(JSON.parse(results[1].output)).toMatchObject({ title: 'Named by OpenCode' });
    expect(events.filter((e: any) => e.type === 'message').map((m: any) => m.text)).toEqual([
      'Reading what my box holds, then naming the session.',
      'Done: the session is named.',
    ]);

    expect((await api.request('GET', `/api/sessions/${id}`)).body.title).toBe('Named by OpenCode');
    const all = await allEvents(api);
    const titled = all.filter((e) => e.type === 'SessionTitleSet');
    // It called nothing but its model, through the relay: no connection went to the proxy.
    const egress = all.filter((e) => e.type === 'EgressRefused' || e.type === 'EgressAllowed');
    expect(egress.map((e) => e.data)).toEqual([]);
    expect(titled.map((e) => e.data)).toEqual([
      expect.objectContaining({ sessionId: id, title: 'Named by OpenCode' }),
    ]);
    const entries = shape(await transcript(api, id));
    // OpenCode reports a call once it has finished: the rename's marker comes before both.
    expect(entries.indexOf('marker:session-renamed')).toBeLessThan(
      entries.indexOf('tool_call#1:sessionboxer_title_set'),
    );

    // The CLI's bash tool listed its own environment too: the placeholder, never the key.
    await expectKeyOnlyAtTheDouble(world, id, KEY, `${environs}\n${results[0].output}`);
    expect(results[0].output).toContain('ANTHROPIC_API_KEY=sessionboxer-placeholder');
  });
});
