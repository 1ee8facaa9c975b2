/**
 * Event store benchmark (`npm run bench:store`), 1 KB events, files on the real disk
 * (BENCH_DIR, default the OS temp dir; never /dev/shm, which would hide the fsync cost):
 *
 *   1. raw better-sqlite3: same schema and pragmas, one event per transaction (the baseline)
 *   2. the adapter, one writer appending one event at a time (goal: ≥ 80 % of raw)
 *   3. the adapter, 64 concurrent writers on distinct streams (goal: ≥ 15,000 events/s,
 *      p99 append latency < 20 ms), with groupCommitMaxWaitMs 0, 1 and 2 for comparison
 *   4. the same 64 writers from one process, then split across two processes appending to one
 *      file at once (store-processes.ts), alternating rounds
 *   5. a catch-up subscription over 1,000,000 events (seeded in big raw transactions)
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { openEventDatabase } from '@sessionboxer/event-store/sqlite/schema';
import { DATA_JSON, event, METADATA_JSON, rate } from './bench-events';
import { appendFromProcesses } from './store-processes';

const SEQUENTIAL_EVENTS = 4_000;
const ROUND = 250;
const WRITERS = 64;
const EVENTS_PER_WRITER = 250;
const CATCH_UP_EVENTS = 1_000_000;
const PROCESS_ROUNDS = 3;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function line(label: string, value: string, ratio?: number): void {
  const r = ratio === undefined ? '' : `  (${(ratio * 100).toFixed(0)} % of raw)`;
  console.log(`${label.padEnd(58)} ${value}${r}`);
}

/**
 * Raw inserts (one per transaction, as fast as better-sqlite3 goes with this schema) against
 * the adapter's sequential single-event appends, in alternating rounds on two files, so drift
 * in the disk's fsync time (large on this VM) lands on both alike.
 */
async function sequentialComparison(dir: string): Promise<{ raw: number; adapter: number }> {
  const db = openEventDatabase(join(dir, 'raw.sqlite'), 'FULL');
  const insert = db.prepare(
    'INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const tx = db.transaction((revision: number) => {
    const at = new Date().toISOString();
    insert.run('raw-1', revision, randomUUID(), 'Benchmarked', DATA_JSON, METADATA_JSON, at);
  });
  const store = SqliteEventStore.open({ path: join(dir, 'sequential.sqlite') });
  let rawMs = 0;
  let adapterMs = 0;
  // The first round warms up the JIT and both files, and is not counted.
  for (let done = -ROUND; done < SEQUENTIAL_EVENTS; done += ROUND) {
    let start = performance.now();
    for (let i = done; i < done + ROUND; i++) tx.immediate(i + ROUND);
    if (done >= 0) rawMs += performance.now() - start;
    start = performance.now();
    for (let i = done; i < done + ROUND; i++) {
      await store.appendToStream('seq-1', [event()], { expectedRevision: i + ROUND - 1 });
    }
    if (done >= 0) adapterMs += performance.now() - start;
  }
  db.close();
  await store.close();
  return { raw: rate(SEQUENTIAL_EVENTS, rawMs), adapter: rate(SEQUENTIAL_EVENTS, adapterMs) };
}

interface ConcurrentResult {
  eventsPerSecond: number;
  p50: number;
  p99: number;
  eventsPerCommit: number;
}

async function concurrentWriters(file: string, maxWaitMs: number): Promise<ConcurrentResult> {
  const store = SqliteEventStore.open({ path: file, groupCommitMaxWaitMs: maxWaitMs });
  const latencies: number[] = [];
  const writer = async (w: number): Promise<void> => {
    for (let i = 0; i < EVENTS_PER_WRITER; i++) {
      const t = performance.now();
      await store.appendToStream(`writer-${w}`, [event()], { expectedRevision: i - 1 });
      latencies.push(performance.now() - t);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  const ms = performance.now() - start;
  const { commits, events } = store.stats();
  await store.close();
  latencies.sort((a, b) => a - b);
  return {
    eventsPerSecond: rate(WRITERS * EVENTS_PER_WRITER, ms),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    eventsPerCommit: events / commits,
  };
}

/** Seeds `count` events in 10,000-event transactions (1,000 streams), bypassing the adapter. */
function seed(file: string, count: number): void {
  const db = openEventDatabase(file, 'NORMAL');
  // Seeding is setup, not a measured figure: a big page cache keeps the random-UUID index in
  // memory, and no fsync per transaction.
  db.pragma('cache_size = -262144');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    'INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const at = new Date().toISOString();
  const chunk = db.transaction((from: number) => {
    for (let i = from; i < from + 10_000; i++) {
      const stream = `seed-${i % 1000}`;
      insert.run(
        stream,
        Math.floor(i / 1000),
        randomUUID(),
        'Seeded',
        DATA_JSON,
        METADATA_JSON,
        at,
      );
    }
  });
  for (let from = 0; from < count; from += 10_000) chunk.immediate(from);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function catchUp(file: string, count: number): Promise<number> {
  const store = SqliteEventStore.open({ path: file });
  const subscription = store.subscribeToAll();
  let seen = 0;
  const start = performance.now();
  for await (const e of subscription) {
    seen++;
    if (e.position <= 0) throw new Error('bad position');
    if (seen === count) break;
  }
  const ms = performance.now() - start;
  await store.close();
  return rate(count, ms);
}

async function main(): Promise<void> {
  const base = process.env.BENCH_DIR ?? tmpdir();
  if (base.startsWith('/dev/shm')) throw new Error('BENCH_DIR must be on a real disk');
  const dir = mkdtempSync(join(base, 'sb-store-bench-'));
  const file = (name: string) => join(dir, `${name}.sqlite`);
  try {
    console.log(`event store benchmark: 1 KB events, synchronous=FULL, files in ${dir}`);
    const { raw, adapter } = await sequentialComparison(dir);
    line('raw better-sqlite3, 1 event/transaction', `${raw} events/s`, 1);
    line('adapter, sequential single-event appends', `${adapter} events/s`, adapter / raw);
    for (const wait of [0, 1, 2]) {
      const c = await concurrentWriters(file(`concurrent-${wait}`), wait);
      line(
        `adapter, ${WRITERS} concurrent writers, groupCommitMaxWaitMs=${wait}`,
        `${c.eventsPerSecond} events/s, p50 ${c.p50.toFixed(1)} ms, p99 ${c.p99.toFixed(1)} ms, ${c.eventsPerCommit.toFixed(1)} events/commit`,
        c.eventsPerSecond / raw,
      );
    }
    for (let round = 0; round < PROCESS_ROUNDS; round++) {
      for (const processes of [1, 2]) {
        const p = await appendFromProcesses(
          file(`processes-${processes}-${round}`),
          processes,
          WRITERS,
          EVENTS_PER_WRITER,
        );
        line(
          `adapter, ${WRITERS} writers in ${processes} process${processes === 1 ? '' : 'es'} (round ${round + 1})`,
          `${p.eventsPerSecond} events/s, p50 ${p.p50.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms`,
          p.eventsPerSecond / raw,
        );
      }
    }
    const seedStart = performance.now();
    seed(file('catch-up'), CATCH_UP_EVENTS);
    line(
      `seeding ${CATCH_UP_EVENTS} events (10k/transaction, raw)`,
      `${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    const sub = await catchUp(file('catch-up'), CATCH_UP_EVENTS);
    line(`catch-up subscription over ${CATCH_UP_EVENTS} events`, `${sub} events/s`, sub / raw);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
