import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { sessionDecider, sessionStream, type SetSessionTitle } from '@sessionboxer/domain';
import { CommandHandler } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { PERSON } from '../test/recorded-events';
import { sessionCounter } from '../test/run-projections.process';
import { runSessionWorkload, type ExpectedSession } from '../test/session-workload';
import { useTempDir } from '../test/temp-files';
import {
  allProjections,
  compareReadModels,
  ProjectionRunner,
  rebuildReadModels,
  sessionDetailsQueries,
  sidebarQueries,
  snapshotQueries,
  SqliteReadModelStore,
  transcriptMarkerQueries,
  type RebuildProgress,
} from '.';

const REPO_ROOT = resolve(__dirname, '../../..');
const CHILD = join(__dirname, '../test/run-projections.process.ts');
/** The session read models, plus a counter that shows an event applied twice. */
const projections = [...allProjections, sessionCounter()];

/** A runner in another process whose events arrive `msPerEvent` apart. */
function startChildRunner(eventsPath: string, readPath: string, msPerEvent: number) {
  const args = ['-r', '@swc-node/register', CHILD, eventsPath, readPath, String(msPerEvent)];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<ChildProcess>((ok, fail) => {
    child.stdout.once('data', () => ok(child));
    child.once('exit', (code) => fail(new Error(`child runner exited (${code}): ${stderr}`)));
  });
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A rename through the command pipeline, as a person would do it in the UI. */
function rename(handler: CommandHandler, sessionId: string, title: string) {
  const command: SetSessionTitle = {
    type: 'SetSessionTitle',
    data: { sessionId, title },
    metadata: { commandId: randomUUID(), at: new Date().toISOString(), actor: PERSON },
  };
  return handler.handle(sessionDecider, sessionStream(sessionId), command);
}

describe('session read models over the real SQLite event store', () => {
  const dir = useTempDir();
  let eventStore: SqliteEventStore;
  let handler: CommandHandler;
  let live: SqliteReadModelStore;
  let runner: ProjectionRunner | undefined;
  const expected = new Map<string, ExpectedSession>();
  const counted = () => live.get(sessionCounter(), 'count');

  beforeEach(() => {
    eventStore = SqliteEventStore.open({ path: join(dir(), 'events.db'), synchronous: 'NORMAL' });
    handler = new CommandHandler(eventStore);
    live = SqliteReadModelStore.open({ path: join(dir(), 'live.db') });
    expected.clear();
  });
  afterEach(async () => {
    await runner?.stop();
    live.close();
    await eventStore.close();
  });

  /** Sessions are created and changed while a runner in a child process applies them; it is
   *  killed with SIGKILL half-way, and a runner here takes over from its checkpoints. */
  async function runThroughACrash(): Promise<number> {
    const child = await startChildRunner(join(dir(), 'events.db'), live.path, 2);
    const options = { prefix: 'a', sessions: 20, actionsPerSession: 7, seed: 1 };
    const work = runSessionWorkload(handler, options, expected);
    await until(() => (counted()?.last ?? -1) >= 40, 15_000);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // The kill landed in the middle of the work: the rest is left to the next runner.
    expect(counted()?.last).toBeLessThan(await work);
    runner = new ProjectionRunner({ eventStore, store: live, projections, batchSize: 50 });
    await runner.start();
    const more = { prefix: 'b', sessions: 20, actionsPerSession: 7, seed: 2 };
    const head = await runSessionWorkload(handler, more, expected);
    await runner.waitForPosition(head, 10_000);
    return head;
  }

  it('apply every event exactly once across a killed runner, and say what the commands did', async () => {
    const head = await runThroughACrash();
    const total = (await eventStore.readAll()).length;
    expect(total).toBeGreaterThanOrEqual(300);
    expect(counted()).toEqual({ n: total, last: head });
    const rows = sidebarQueries(live).list();
    const shown = rows.map((s) => [
      s.id,
      {
        title: s.title,
        status: s.status,
        parentId: s.parentId,
        snapshotCount: sessionDetailsQueries(live).get(s.id)?.snapshotCount,
      },
    ]);
    expect(Object.fromEntries(shown)).toEqual(Object.fromEntries(expected));
    const snapshotTotal = [...expected.values()].reduce((n, e) => n + e.snapshotCount, 0);
    expect(snapshotTotal).toBeGreaterThan(10);
    const markers = transcriptMarkerQueries(live).page('b5', { limit: 500 }).markers;
    expect(markers[0].text).toBe('created the Session');
    const children = [...expected.values()].filter((e) => e.parentId === 'b5').length;
    const snapshots = expected.get('b5')?.snapshotCount ?? 0;
    expect(
      snapshotQueries(live)
        .list('b5')
        .map((s) => s.ordinal),
    ).toEqual(Array.from({ length: snapshots }, (_, i) => i + 1));
    expect(markers.filter((m) => m.kind === 'snapshot-taken')).toHaveLength(snapshots);
    expect(markers.filter((m) => m.link === null)).toHaveLength(1 + 7 - snapshots);
    expect(markers.filter((m) => m.kind === 'child-session-created')).toHaveLength(children);
  });

  it('give read-your-writes through waitForPosition', async () => {
    await runThroughACrash();
    for (const title of ['One', 'Two', 'Three']) {
      const renamed = await rename(handler, 'a3', title);
      await runner?.waitForPosition(renamed.position ?? Infinity, 2000);
      expect(sidebarQueries(live).get('a3')?.title).toBe(title);
    }
  });

  it('equal, exactly, a rebuild from position 0 into a fresh file', async () => {
    const head = await runThroughACrash();
    await runner?.stop();
    const progress: RebuildProgress[] = [];
    const path = join(dir(), 'rebuilt.db');
    const onProgress = (p: RebuildProgress) => progress.push(p);
    const result = await rebuildReadModels({
      eventStore,
      path,
      projections,
      batchSize: 100,
      onProgress,
    });
    const total = (await eventStore.readAll()).length;
    expect(result.eventsDone).toBe(total);
    expect(progress.at(-1)).toEqual({ eventsDone: total, position: head, headPosition: head });
    const rebuilt = SqliteReadModelStore.open({ path });
    try {
      const comparison = compareReadModels(live, rebuilt);
      expect(comparison.projections.map((p) => [p.projection, p.equal])).toEqual([
        ['api_keys', true],
        ['approvals', true],
        ['conversation_events', true],
        ['conversations', true],
        ['counter', true],
        ['egress_hosts', true],
        ['inbox', true],
        ['limits', true],
        ['notifications', true],
        ['pull_requests', true],
        ['recordings', true],
        ['repositories', true],
        ['sandboxes', true],
        ['schedules', true],
        ['search', true],
        ['session_details', true],
        ['session_policies', true],
        ['sidebar_tree', true],
        ['snapshots', true],
        ['ssh_endpoints', true],
        ['ssh_keys', true],
        ['ssh_terminals', true],
        ['timeline', true],
        ['transcript_markers', true],
        ['turn_snapshots', true],
        ['verifications', true],
      ]);
      expect(comparison.equal).toBe(true);
    } finally {
      rebuilt.close();
    }
  });
});
