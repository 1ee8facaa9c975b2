/**
 * Several processes appending to one SQLite event store file at once (several control-plane
 * instances on one host): real child processes (child/race-writer.ts), started together.
 * Every race has one winner per revision, the losers get ConcurrencyError, nothing is lost
 * or written twice, positions have no gap, the hash chain verifies, an idempotent re-append
 * from another process appends nothing, a CommandHandler rule holds across processes, and a
 * subscription in this process sees every child's appends in order.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyStore } from '@sessionboxer/event-store/chain';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { REPO_ROOT } from './child/spawn-ts';
import { PLACES, type RaceReport } from './child/race-protocol';

const WRITER = join(__dirname, 'child/race-writer.ts');

/** Forks one child per argument list, waits until all are ready, starts them at once. */
async function race(argsPerChild: string[][], digestThread = 'auto'): Promise<RaceReport[]> {
  const children: ChildProcess[] = argsPerChild.map((args) =>
    fork(WRITER, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, RACE_DIGEST_THREAD: digestThread },
      execArgv: ['-r', '@swc-node/register'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  try {
    const reports = children.map(
      (child) =>
        new Promise<RaceReport>((resolve, reject) => {
          child.on('message', (m) => {
            if (m !== 'ready') resolve(m as RaceReport);
          });
          child.once('exit', (code) =>
            reject(new Error(`child exited with ${code} before its report`)),
          );
        }),
    );
    await Promise.all(
      children.map((child) => new Promise((ready) => child.once('message', ready))),
    );
    for (const child of children) child.send('go');
    return await Promise.all(reports);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }
}

describe('several processes on one SQLite event store file', () => {
  let dir: string;
  let file: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-multi-process-'));
    file = join(dir, 'events.sqlite');
    store = SqliteEventStore.open({ path: file });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['auto', 'on'])(
    'races on shared streams: one winner per revision, no loss, no duplicate, no gap, a chain that verifies, seen live here (digest thread %s)',
    async (digestThread) => {
      const streams = ['shared-a', 'shared-b', 'shared-c'];
      const live: RecordedEvent[] = [];
      const subscription = store.subscribeToAll();
      const PROCESSES = 4;
      const WRITERS = 6;
      const APPENDS = 15;
      const total = PROCESSES * WRITERS * APPENDS * 2;
      const watching = (async () => {
        for await (const e of subscription) if (live.push(e) === total) break;
      })();

      const args = ['append', file, String(WRITERS), String(APPENDS), ...streams];
      const reports = await race(
        Array.from({ length: PROCESSES }, () => args),
        digestThread,
      );
      // A child that failed wrote less than `total`: stop watching, the checks below say why.
      if (reports.some((r) => r.errors.length > 0)) await subscription.close();
      await watching;

      expect(reports.flatMap((r) => r.errors)).toEqual([]);
      const appended = reports.flatMap((r) => r.appended);
      expect(appended).toHaveLength(PROCESSES * WRITERS * APPENDS);
      // Writers read, then append at that revision: with 24 of them on 3 streams, races are lost.
      expect(reports.reduce((n, r) => n + r.refused, 0)).toBeGreaterThan(0);
      expect(new Set(reports.map((r) => r.pid)).size).toBe(PROCESSES);

      const all = await store.readAll();
      expect(all.map((e) => e.position)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(new Set(all.map((e) => e.id)).size).toBe(total);
      // Every acknowledged append is there, once, where it was told it went.
      const byId = new Map(all.map((e) => [e.id, e]));
      for (const a of appended) {
        const [first, second] = a.ids.map((id) => byId.get(id));
        expect([first?.streamName, second?.streamName]).toEqual([a.stream, a.stream]);
        expect([first?.revision, second?.revision]).toEqual([a.revision - 1, a.revision]);
        expect(second?.position).toBe(a.position);
        expect(first?.position).toBe(a.position - 1);
      }
      for (const s of streams) {
        const revisions = (await store.readStream(s)).map((e) => e.revision);
        expect(revisions).toEqual(revisions.map((_, i) => i));
      }
      // The subscription here saw every child's appends, in order.
      expect(live.map((e) => e.id)).toEqual(all.map((e) => e.id));
      const { publicKey } = generateKeyPairSync('ed25519');
      const summary = await verifyStore(store, publicKey);
      expect(summary.problem).toBeNull();
      expect(summary.events).toBe(total);
    },
  );

  it('the same append from several processes at once is written once', async () => {
    const ids = ['d3f2a4c6-1111-4aaa-8bbb-000000000001', 'd3f2a4c6-1111-4aaa-8bbb-000000000002'];
    await store.appendToStream('other', [
      {
        id: 'd3f2a4c6-1111-4aaa-8bbb-0000000000ff',
        type: 'Before',
        data: {},
        metadata: {
          commandId: 'c',
          correlationId: 'c',
          causationId: 'c',
          actor: { kind: 'system', id: 't' },
          at: 'now',
        },
      },
    ]);
    const reports = await race(Array.from({ length: 4 }, () => ['repeat', file, 'once', ...ids]));
    expect(reports.flatMap((r) => r.errors)).toEqual([]);
    const events = await store.readStream('once');
    expect(events.map((e) => e.id)).toEqual(ids);
    const results = reports.map((r) => r.appended[0]);
    expect(results.map((r) => [r.position, r.revision])).toEqual(
      results.map(() => [events[1].position, 1]),
    );
  });

  it('a CommandHandler rule holds across processes: 50 racing commands, exactly 3 take a place', async () => {
    const reports = await race([
      ['take', file, 'places-1', '25'],
      ['take', file, 'places-1', '25'],
    ]);
    expect(reports.flatMap((r) => r.errors)).toEqual([]);
    const taken = reports.flatMap((r) => r.appended);
    expect(taken).toHaveLength(PLACES);
    expect(reports.reduce((n, r) => n + r.refused, 0)).toBe(50 - PLACES);
    const events = await store.readStream('places-1');
    expect(events.map((e) => e.type)).toEqual(['PlaceTaken', 'PlaceTaken', 'PlaceTaken']);
    expect(events.map((e) => e.id).sort()).toEqual(taken.flatMap((t) => t.ids).sort());
  });
});
