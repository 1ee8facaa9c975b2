import * as fs from 'node:fs';
import { script, turnFinished } from '../../control-plane/test/agent/agent-kit';
import { waitFor, waitForBox } from '../../control-plane/test/box-kit';
import { TEST_PASSWORD, tempDataDir, type RunningApp } from '../../control-plane/test/harness';
import {
  type ControlPlaneProcess,
  pidOf,
  removeAllBoxes,
  startControlPlane,
} from '../../control-plane/test/restart/process-kit';
import { startTestRedis, type TestRedis } from '../../control-plane/src/jobs/test/redis-server';
import { openBrowser, openSession, signIn, transcriptLog, type BrowserKit } from './browser-kit';

const DAEMON = 'dist/apps/box-agent/src/main.js';
const sb = (tool: string, args: object = {}) => ({ call: `sessionboxer.${tool}`, args });

/**
 * Two control-plane processes (the built `npm start`) on one SQLite event store file and one
 * redis-server, each with its own read models, serving the API, the UI and the gateway of the
 * boxes it owns (docs/SCALING.md). Real boxes, the scripted harness as the agent, Chromium.
 */
describe('two control-plane instances on one event store and one Redis', () => {
  const dataDir = tempDataDir();
  let redis: TestRedis;
  let a: ControlPlaneProcess;
  let b: ControlPlaneProcess;
  let kit: BrowserKit | undefined;
  const api = (cp: ControlPlaneProcess) => cp.api as RunningApp;
  const create = async (cp: ControlPlaneProcess, title: string): Promise<string> => {
    const id = (await cp.api.request('POST', '/api/sessions', { title, provider: 'scripted' }))
      .body as { id: string };
    await cp.api.request('PATCH', `/api/sessions/${id.id}/policy`, { agentTools: 'all' });
    return id.id;
  };
  const prompt = (cp: ControlPlaneProcess, id: string, ...steps: object[]) =>
    cp.api.request('POST', `/api/sessions/${id}/prompts`, { text: script(...steps) });
  const results = async (cp: ControlPlaneProcess, id: string, turn: number) =>
    (
      (await cp.api.request('GET', `/api/sessions/${id}/conversation?limit=500`)).body as {
        events: { turn: number; type: string; output: string; error: boolean }[];
      }
    ).events.filter((e) => e.turn === turn && e.type === 'tool_result');
  const streamEvents = async (cp: ControlPlaneProcess, stream: string) =>
    (
      (await cp.api.request('GET', `/api/streams/${stream}/events?limit=1000`)).body as {
        events: { type: string; data: any }[];
      }
    ).events;
  let onA: string;
  const turnsOf = async (cp: ControlPlaneProcess, id: string): Promise<number> =>
    (await cp.api.request('GET', `/api/sessions/${id}/conversation?limit=1`)).body.conversation
      ?.turns ?? 0;
  /** Prompts through `via`, waits for that turn to end, and gives its tool results. */
  const runTurn = async (via: ControlPlaneProcess, id: string, ...steps: object[]) => {
    const turn = (await turnsOf(via, id)) + 1;
    await prompt(via, id, ...steps);
    await turnFinished(api(via), id, turn, 60_000);
    return results(via, id, turn);
  };

  beforeAll(async () => {
    redis = await startTestRedis();
    const env = (name: string) => ({ SESSIONBOXER_INSTANCE: name, REDIS_URL: redis.url });
    a = await startControlPlane(dataDir, env('cp-a'));
    b = await startControlPlane(dataDir, env('cp-b'));
    onA = await create(a, 'Runs on A');
    await waitForBox(api(a), onA);
  }, 120_000);
  afterAll(async () => {
    await kit?.close();
    await a?.kill();
    await b?.kill();
    await removeAllBoxes(dataDir);
    await redis?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows a tool call of a box on A live in a browser signed in on B', async () => {
    kit = await openBrowser({ timeoutMs: 30_000 });
    await signIn(kit.page, {
      url: b.url,
      credentials: { username: 'admin', password: TEST_PASSWORD },
    });
    await openSession(kit.page, 'Runs on A');
    await prompt(a, onA, sb('title_set', { title: 'Runs on A' }), { say: 'hello from A' });
    await transcriptLog(kit.page).getByText('hello from A').waitFor();
    await transcriptLog(kit.page)
      .getByText(/title_set/)
      .first()
      .waitFor();
    // B forwards what only the box's instance can do: its files are read where the box runs.
    const turn1 = await turnFinished(api(b), onA, 1, 30_000);
    expect(turn1.status).toBe('finished');
  });

  it('answers approval_wait on A when the approval is allowed on B', async () => {
    await runTurn(
      b, // forwarded to A, which runs the box
      onA,
      sb('session_create', { title: 'Helper', provider: 'scripted', first_prompt: 'hi' }),
    );
    const [pending] = (await b.api.request('GET', `/api/sessions/${onA}/approvals`)).body as {
      id: string;
      status: string;
    }[];
    expect(pending).toMatchObject({ status: 'pending' });
    const turn = (await turnsOf(a, onA)) + 1;
    await prompt(a, onA, sb('approval_wait', { id: pending.id, timeout_seconds: 20 }));
    await waitFor(
      'approval_wait to be waiting',
      async () =>
        (await a.api.request('GET', `/api/sessions/${onA}/conversation?limit=500`)).body
          .conversation?.currentTurn === turn,
    );
    const allowed = await b.api.request('POST', `/api/approvals/${pending.id}/allow`);
    expect(allowed.status).toBe(200);
    await turnFinished(api(a), onA, turn, 60_000);
    const [waited] = await results(a, onA, turn);
    expect({ error: waited.error, output: waited.output }).toEqual({
      error: false,
      output: expect.stringContaining('"allowed"') as string,
    });
    expect(JSON.parse(waited.output)).toMatchObject({ status: 'allowed' });
  });

  it('fires a schedule once per occurrence, not once per instance', async () => {
    const [created] = await runTurn(
      a,
      onA,
      sb('schedule_create', {
        cron: '*/2 * * * * *',
        name: 'Tick',
        action: { type: 'prompt', text: script({ say: 'tick' }) },
      }),
    );
    const scheduleId = JSON.parse(created.output).id as string;
    const runs = () =>
      streamEvents(b, `schedule-${scheduleId}`).then((e) =>
        e.filter((x) => x.type === 'ScheduleRunRecorded'),
      );
    await waitFor('three runs', async () => (await runs()).length >= 3 || undefined, 30_000);
    await b.api.request('PATCH', `/api/schedules/${scheduleId}`, { enabled: false });
    const conversation = async () =>
      (await a.api.request('GET', `/api/sessions/${onA}/conversation?limit=500`)).body;
    await waitFor('the prompts to be played', async () => {
      const c = (await conversation()).conversation;
      return c.currentTurn === null && c.queued === 0;
    });
    const occurrences = (await runs()).map((r) => r.data.scheduledFor as string);
    expect(new Set(occurrences).size).toBe(occurrences.length);
    // Each occurrence prompted once: as many ticks as runs, whichever instance's worker fired.
    const ticks = (await conversation()).events.filter(
      (e: any) => e.type === 'message' && e.text === 'tick',
    );
    expect(ticks).toHaveLength(occurrences.length);
  });

  it('lets exactly 3 of 50 session_create calls from creators on both instances through the global cap', async () => {
    const agentMade = ((await b.api.request('GET', '/api/sessions')).body as any[]).filter(
      (s) => s.createdBy && s.status === 'running',
    ).length;
    await a.api.request('PATCH', '/api/settings', { sessionboxer: { globalCap: agentMade + 3 } });
    const creators = await Promise.all([
      create(a, 'Creator A1'),
      create(a, 'Creator A2'),
      create(b, 'Creator B1'),
      create(b, 'Creator B2'),
    ]);
    for (const id of creators) {
      await (creators.indexOf(id) < 2 ? a : b).api.request('PATCH', `/api/sessions/${id}/policy`, {
        sessionCreation: 'dont_ask',
      });
      await waitForBox(api(b), id);
    }
    // 50 calls: 13 + 12 from A's two creators, 13 + 12 from B's.
    const calls = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        sb('session_create', { title: `Job ${i}`, provider: 'scripted', first_prompt: 'go' }),
      );
    await Promise.all(
      creators.map((id, i) => prompt(i < 2 ? a : b, id, ...calls(i % 2 === 0 ? 13 : 12))),
    );
    for (const id of creators) await turnFinished(api(b), id, 1, 120_000);
    const outcomes = (await Promise.all(creators.map((id) => results(b, id, 1)))).flat();
    expect(outcomes).toHaveLength(50);
    expect(outcomes.filter((r) => !r.error)).toHaveLength(3);
    const alive = ((await b.api.request('GET', '/api/sessions')).body as any[]).filter(
      (s) => creators.includes(s.createdBy?.sessionId) && s.status === 'running',
    );
    expect(alive).toHaveLength(3);
  });

  it('leaves the boxes of a killed instance running for the other to take over', async () => {
    const daemon = pidOf(dataDir, onA, DAEMON);
    expect(daemon).toBeDefined();
    await a.kill();
    const adopted = await waitFor(
      'B to take the box over',
      async () =>
        (await streamEvents(b, `box-${onA}`)).filter((e) => e.type === 'BoxAdopted').length >= 1 ||
        undefined,
      60_000,
    );
    expect(adopted).toBe(true);
    await waitForBox(api(b), onA, 'ready');
    expect(pidOf(dataDir, onA, DAEMON)).toBe(daemon);
    const turn = (await turnsOf(b, onA)) + 1;
    await prompt(b, onA, { say: 'after the takeover' });
    expect((await turnFinished(api(b), onA, turn, 30_000)).status).toBe('finished');
  });
});
