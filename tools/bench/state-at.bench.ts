/**
 * State at a point (`npm run bench:audit`, part 3; or run this file alone): a session of
 * 10,000 events through the command pipeline (a snapshot every 100, a stop or a resume every
 * 50, the rest renames: each rename is a marker in the transcript), then
 * sessionStateAt at its head and half-way, 20 times each: p50 and p95 (goal p50 < 50 ms),
 * folding the whole prefix each time, and with StateAtSnapshots (as the API keeps them: a fold
 * every 1,000 events) after one cold question at the head.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionDecider, sessionStream, type SessionCommand } from '@sessionboxer/domain';
import { CommandHandler } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { sessionStateAt, StateAtSnapshots } from '@sessionboxer/projections';

const EVENTS = 10_000;
const RUNS = 20;
const ID = 'bench-state';
const actor = { kind: 'person', id: 'bench' } as const;

function command(n: number, stopped: boolean): SessionCommand {
  const sessionId = ID;
  const at = new Date().toISOString();
  const metadata = { commandId: randomUUID(), at, actor };
  if (n === 0) {
    const data = { sessionId, title: 'Bench', provider: 'claude-code', model: 'claude' };
    const rest = { environment: 'docker-linux', createdBy: null, forkedFrom: null };
    return { type: 'CreateSession', data: { ...data, ...rest }, metadata } as SessionCommand;
  }
  if (n % 100 === 3) {
    const data = { sessionId, snapshotId: `snap-${n}`, sizeBytes: n, conversationPosition: null };
    return { type: 'TakeSnapshot', data, metadata };
  }
  if (n % 50 === 7) {
    return stopped
      ? { type: 'ResumeSession', data: { sessionId }, metadata }
      : { type: 'StopSession', data: { sessionId, reason: 'bench' }, metadata };
  }
  return { type: 'SetSessionTitle', data: { sessionId, title: `Bench ${n}` }, metadata };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

export async function benchStateAt(
  dir: string,
  line: (label: string, value: string) => void,
): Promise<void> {
  const store = SqliteEventStore.open({
    path: join(dir, 'state-at.sqlite'),
    synchronous: 'NORMAL',
  });
  try {
    const handler = new CommandHandler(store);
    let stopped = false;
    for (let n = 0; (await store.headPosition()) < EVENTS; n++) {
      const c = command(n, stopped);
      if (c.type === 'StopSession') stopped = true;
      if (c.type === 'ResumeSession') stopped = false;
      await handler.handle(sessionDecider, sessionStream(ID), c);
    }
    const head = await store.headPosition();
    const snapshots = new StateAtSnapshots(1000, 128 << 20);
    const cold = performance.now();
    await sessionStateAt(store, ID, { position: head }, snapshots);
    line(
      'state at the head, cold (keeping snapshots)',
      `${(performance.now() - cold).toFixed(1)} ms`,
    );
    for (const [label, position, kept] of [
      ['head', head, undefined],
      ['half-way', Math.floor(head / 2), undefined],
      ['head, from snapshots', head, snapshots],
      ['half-way + 500, from snapshots', Math.floor(head / 2) + 500, snapshots],
    ] as const) {
      const ms: number[] = [];
      for (let run = -2; run < RUNS; run++) {
        const start = performance.now();
        const state = await sessionStateAt(store, ID, { position }, kept);
        if (state.session.status === 'absent') throw new Error('the session is missing');
        if (run >= 0) ms.push(performance.now() - start);
      }
      ms.sort((a, b) => a - b);
      line(
        `state at a position (${label}, ${position} of ${head} events, 1 session)`,
        `p50 ${percentile(ms, 0.5).toFixed(1)} ms, p95 ${percentile(ms, 0.95).toFixed(1)} ms`,
      );
    }
  } finally {
    await store.close();
  }
}

if (require.main === module) {
  const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'sb-state-bench-'));
  benchStateAt(dir, (label, value) => console.log(`${label.padEnd(58)} ${value}`))
    .catch((e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    })
    .finally(() => (process.env.KEEP ? undefined : rmSync(dir, { recursive: true, force: true })));
}
