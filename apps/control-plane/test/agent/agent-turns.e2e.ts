import * as fs from 'node:fs';
import { waitForBox } from '../box-kit';
import { startApp, type RunningApp } from '../harness';
import { conversation, script, shape, transcript, turnFinished, turnRunning } from './agent-kit';

/**
 * The proof: a session whose agent is the scripted harness takes a prompt, calls
 * sessionboxer tools through its box's real MCP servers, queues a follow-up that runs as the
 * next turn, and shows it all in the transcript in order; an interrupt ends a running turn.
 */
describe('a session agent, turn by turn, in a real box', () => {
  let api: RunningApp;
  let id: string;

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    const created = await api.request('POST', '/api/sessions', {
      title: 'Agent at work',
      provider: 'scripted',
    });
    expect(created.status).toBe(201);
    id = created.body.id;
    await waitForBox(api, id);
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('runs a prompt whose agent calls whoami, title_set and queue_add, then the queued turn', async () => {
    const followUp = script({ say: 'Second turn, as queued.' });
    const sent = await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script(
        { say: 'Looking at where I am.' },
        { call: 'sessionboxer.whoami' },
        { call: 'sessionboxer.title_set', args: { title: 'Renamed by its agent' } },
        { call: 'sessionboxer.queue_add', args: { text: followUp } },
        { say: 'Done; the follow-up is queued.' },
      ),
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({
      conversationId: id,
      status: 'running',
      turn: 1,
      position: 0,
    });

    const first = await turnFinished(api, id, 1);
    expect(first).toMatchObject({ status: 'finished', input_tokens: 0, output_tokens: 0 });
    const second = await turnFinished(api, id, 2);
    expect(second.status).toBe('finished');

    const { events, conversation: header } = await conversation(api, id);
    const results = events.filter((e: any) => e.type === 'tool_result');
    expect(results.map((r: any) => r.error)).toEqual([false, false, false]);
    const me = JSON.parse(results[0].output);
    // whoami seen from inside the turn: this session, its agent running, nothing queued yet.
    expect(me).toMatchObject({ id, title: 'Agent at work', status: 'running', queueLength: 0 });
    expect(JSON.parse(results[2].output)).toMatchObject({ position: 1 });
    expect(events.map((e: any) => e.seq)).toEqual(events.map((_: unknown, i: number) => i + 1));
    const prompts = events.filter((e: any) => e.type === 'prompt');
    expect(prompts[0].briefing).toContain('“Agent at work”');
    expect(prompts[1]).toMatchObject({ turn: 2, text: followUp, briefing: null });
    expect(prompts[1].from).toEqual({ kind: 'agent', sessionId: id });
    expect(header).toMatchObject({ status: 'idle', turns: 2, queued: 0, currentTurn: null });

    const entries = shape(await transcript(api, id));
    expect(entries.slice(0, 2)).toEqual(['marker:session-created', 'prompt#1']);
    const at = (s: string) => entries.indexOf(s);
    // An action's marker lands before the tool result that reports it, and turn 2 after turn 1.
    const results1 = entries.flatMap((s, i) => (s === 'tool_result#1' ? [i] : []));
    expect(at('marker:session-renamed')).toBeGreaterThan(
      at('tool_call#1:mcp__sessionboxer__whoami'),
    );
    expect(at('marker:session-renamed')).toBeLessThan(results1[1]);
    expect(at('marker:prompt-queued')).toBeLessThan(results1[2]);
    expect(at('turn_finished#1')).toBeLessThan(at('prompt#2'));
    expect(entries.slice(at('prompt#2'))).toEqual(['prompt#2', 'message#2', 'turn_finished#2']);
    const renamed = (await api.request('GET', `/api/sessions/${id}`)).body;
    expect(renamed.title).toBe('Renamed by its agent');
  });

  it('queues prompts sent during a turn; a person edits and drops them; interrupt ends the turn', async () => {
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: script({ sleep: 60 }) });
    await turnRunning(api, id, 3);
    const a = await api.request('POST', `/api/sessions/${id}/prompts`, { text: 'first draft' });
    const b = await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script({ say: 'B' }),
    });
    expect([a.body.status, a.body.position, b.body.position]).toEqual(['queued', 1, 2]);
    const edited = await api.request('PATCH', `/api/sessions/${id}/queue/${a.body.promptId}`, {
      text: script({ say: 'edited before it ran' }),
    });
    expect(edited.status).toBe(200);
    const dropped = await api.request('DELETE', `/api/sessions/${id}/queue/${b.body.promptId}`);
    expect(dropped.body.map((q: any) => q.id)).toEqual([a.body.promptId]);
    const again = await api.request('DELETE', `/api/sessions/${id}/queue/${b.body.promptId}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toMatch(/not in the queue/);

    const stop = await api.request('POST', `/api/sessions/${id}/interrupt`);
    expect(stop.status).toBe(200);
    expect(stop.body).toEqual({ conversationId: id, turn: 3, status: 'interrupted' });
    expect((await turnFinished(api, id, 3)).status).toBe('interrupted');
    // The edited prompt runs next, as edited.
    await turnFinished(api, id, 4);
    const { events } = await conversation(api, id);
    const turn4 = events.filter((e: any) => e.turn === 4).map((e: any) => e.text ?? e.type);
    expect(turn4.slice(1)).toEqual(['edited before it ran', 'turn_finished']);
    const nothing = await api.request('POST', `/api/sessions/${id}/interrupt`);
    expect(nothing.status).toBe(409);
    expect(nothing.body.message).toMatch(/no turn is running/);
  });

  it('refuses a bad prompt with the reason and records nothing', async () => {
    const before = (await conversation(api, id)).events.length;
    const empty = await api.request('POST', `/api/sessions/${id}/prompts`, { text: '' });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toMatch(/text/);
    const missing = await api.request('POST', `/api/sessions/not-a-session/prompts`, {
      text: 'hi',
    });
    expect(missing.status).toBe(404);
    expect((await conversation(api, id)).events.length).toBe(before);
  });
});
