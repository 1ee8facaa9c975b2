import * as fs from 'node:fs';
import { waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';
import { conversation, script, transcript, turnFinished } from './agent/agent-kit';

/**
 * The proof with two real boxes: a parent agent creates a child (a person allows it
 * through the admin API), messages it, waits for its reply and stops it.
 */
describe('an agent acting on the session it created', () => {
  let api: RunningApp;
  let parent: string;
  let turn = 0;

  /** Runs one scripted turn of the parent; returns its tool results' outputs, parsed. */
  const play = async (...steps: object[]): Promise<any[]> => {
    await api.request('POST', `/api/sessions/${parent}/prompts`, { text: script(...steps) });
    await turnFinished(api, parent, ++turn, 60_000);
    const events = (await conversation(api, parent)).events;
    return events
      .filter((e: any) => e.turn === turn && e.type === 'tool_result')
      .map((e: any) => (e.error ? { error: e.output } : JSON.parse(e.output)));
  };

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    parent = (await api.request('POST', '/api/sessions', { title: 'Lead', provider: 'scripted' }))
      .body.id;
    await api.request('PATCH', `/api/sessions/${parent}/policy`, { agentTools: 'all' });
    await waitForBox(api, parent);
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('creates a child once a person allows it, messages it, waits for its reply and stops it', async () => {
    const childTask = script({ say: 'Child ready.' });
    const [pending] = await play({
      call: 'sessionboxer.session_create',
      args: { first_prompt: childTask, title: 'Helper', provider: 'scripted' },
    });
    expect(pending).toMatchObject({
      pending: true,
      summary: 'The scripted harness wants to create a Session “Helper”',
    });
    const [waiting] = await play({
      call: 'sessionboxer.approval_wait',
      args: { id: pending.id, timeout_seconds: 1 },
    });
    expect(waiting.status).toBe('pending');

    const allowed = await api.request('POST', `/api/approvals/${pending.id}/allow`);
    expect(allowed.body).toMatchObject({
      status: 'allowed',
      result: { pending: false, title: 'Helper' },
    });
    const child = allowed.body.result.sessionId as string;
    const [answered] = await play({ call: 'sessionboxer.approval_wait', args: { id: pending.id } });
    expect(answered).toMatchObject({ status: 'allowed', result: { sessionId: child } });
    await waitForBox(api, child);
    await turnFinished(api, child, 1, 30_000);

    const [sent, waited] = await play(
      {
        call: 'sessionboxer.session_message',
        args: { session: child.slice(0, 8), text: script({ say: 'Reply from the child.' }) },
      },
      { call: 'sessionboxer.session_wait', args: { session: child, timeout_seconds: 20 } },
    );
    expect(sent).toMatchObject({ sessionId: child, title: 'Helper' });
    expect(waited).toMatchObject({ still_running: false, lastReply: 'Reply from the child.' });
    const childPrompt = (await conversation(api, child)).events.find(
      (e: any) => e.type === 'prompt' && e.turn === 2,
    );
    expect(childPrompt.from).toEqual({ kind: 'agent', sessionId: parent });

    const [listed, stopped] = await play(
      { call: 'sessionboxer.sessions_list' },
      { call: 'sessionboxer.session_stop', args: { session: child } },
    );
    expect(listed.find((s: any) => s.id === child)).toMatchObject({
      mine: true,
      self: false,
      createdBy: { sessionId: parent, title: 'Lead' },
    });
    expect(listed.find((s: any) => s.id === parent)).toMatchObject({ self: true });
    expect(stopped).toEqual({ sessionId: child, title: 'Helper', status: 'stopped' });

    const tree = (await api.request('GET', '/api/sidebar')).body;
    const lead = tree.find((n: any) => n.id === parent);
    expect(lead.children.map((c: any) => [c.title, c.childOf.title])).toEqual([['Helper', 'Lead']]);
    const parentMarkers = (await transcript(api, parent))
      .filter((e) => e.kind === 'marker')
      .map((e) => e.marker?.text);
    expect(parentMarkers).toEqual(
      expect.arrayContaining([
        'The scripted harness wants to create a Session “Helper”',
        'you allowed the request',
        'created Session “Helper”',
        'sent a message to “Helper”',
      ]),
    );
    // Its first prompt came from the parent too, and reached the child at once (not queued).
    expect(parentMarkers.filter((t) => t === 'sent a message to “Helper”')).toHaveLength(2);
    const childMarkers = (await transcript(api, child))
      .filter((e) => e.kind === 'marker')
      .map((e) => e.marker?.text);
    expect(childMarkers).toEqual(
      expect.arrayContaining([
        'created the Session',
        'stopped the Session (stopped by the agent that created it)',
      ]),
    );
    await waitFor(
      'the child to be stopped',
      async () => (await api.request('GET', `/api/sessions/${child}`)).body.status === 'stopped',
    );
  });

  it('forks itself from a snapshot taken now: the fork has its files and counts as its child', async () => {
    const workspace = (await api.request('GET', `/api/sessions/${parent}`)).body.box.workspacePath;
    fs.writeFileSync(`${workspace}/notes.txt`, 'work in progress\n');
    const [forked] = await play({ call: 'sessionboxer.session_fork' });
    expect(forked).toMatchObject({ pending: false, title: 'Lead (fork)', snapshotOrdinal: 1 });
    const fork = (await waitForBox(api, forked.sessionId)).box.workspacePath;
    expect(fs.readFileSync(`${fork}/notes.txt`, 'utf8')).toBe('work in progress\n');
    const [listed] = await play({ call: 'sessionboxer.sessions_list' });
    expect(listed.find((s: any) => s.id === forked.sessionId)).toMatchObject({
      createdBy: { sessionId: parent, title: 'Lead' },
      forkedFrom: { sessionId: parent, title: 'Lead', snapshotId: expect.any(String) },
    });
    const session = (await api.request('GET', `/api/sessions/${forked.sessionId}`)).body;
    expect(session.createdBy).toEqual({ sessionId: parent });
    expect(session.forkedFrom.sessionId).toBe(parent);
    const limits = (await api.request('GET', `/api/sessions/${parent}/limits`)).body;
    expect(limits.children.alive.map((a: any) => a.sessionId)).toEqual([forked.sessionId]);
    const markers = (await transcript(api, parent)).map((e) => e.marker?.text);
    expect(markers).toEqual(
      expect.arrayContaining(['took Snapshot 1', 'forked the Session as “Lead (fork)”']),
    );
  });
});
