/**
 * Tamper-evident history benchmark (`npm run bench:audit`), 1 KB events, files on the real disk
 * (BENCH_DIR, default the OS temp dir; never /dev/shm, which would hide the fsync cost):
 *
 *   1. bench:store's 64-writer run with the hash chain and without it (chain-cost.bench.ts;
 *      goal: the chain ≤ 10 % slower)
 *   2. `verify` over 1,000,000 chained events (schema 3, salted commitments) with a checkpoint
 *      every 1,000 (seeded in 10,000-event raw transactions): events/s (goal ≥ 200,000/s)
 *   3. a session's state at a position, over a session of 10,000 events (state-at.bench.ts)
 *   4. the automatic snapshot at a turn's end, 200 MB workspace, 3 changed files
 *      (turn-snapshots.bench.ts; goal p50 < 100 ms)
 *
 * `--chain-only` runs part 1 alone; AUDIT_BENCH_ROUNDS sets its rounds (default 6).
 * `--verify-only` runs part 2 alone (AUDIT_BENCH_VERIFY_EVENTS sets its events).
 * `--profile` runs part 1 under the CPU profiler instead and prints where the chain's time goes
 * (audit-profile.ts).
 */
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHECKPOINT_STREAM,
  CHECKPOINT_TYPE,
  GENESIS_HASH,
  linkHash,
  signCheckpoint,
  verifyStore,
  type ChainSummary,
} from '@sessionboxer/event-store/chain';
import { commitNew } from '@sessionboxer/event-store/chain/commitment';
import { SqliteEventStore, verifyFile } from '@sessionboxer/event-store/sqlite';
import { openEventDatabase } from '@sessionboxer/event-store/sqlite/schema';
import { profileChain } from './audit-profile';
import { benchChainCost, WRITERS_EVENTS, writersRun } from './chain-cost.bench';
import { benchStateAt } from './state-at.bench';
import { benchTurnSnapshots } from './turn-snapshots.bench';
import { DATA_JSON, METADATA_JSON, rate } from './bench-events';

const ROUNDS = Number(process.env.AUDIT_BENCH_ROUNDS ?? 6);
const CHAIN_ONLY = process.argv.includes('--chain-only');
const PROFILE = process.argv.includes('--profile');
const VERIFY_ONLY = process.argv.includes('--verify-only');
const VERIFY_EVENTS = Number(process.env.AUDIT_BENCH_VERIFY_EVENTS ?? 1_000_000);
const CHECKPOINT_EVERY = 1_000;

function line(label: string, value: string): void {
  console.log(`${label.padEnd(58)} ${value}`);
}

/**
 * `count` chained events in 10,000-event raw transactions, a signed checkpoint after every
 * 1,000; returns the public key that signed them.
 */
function seedChained(file: string, count: number): KeyObject {
  const key = generateKeyPairSync('ed25519');
  const db = openEventDatabase(file, 'NORMAL');
  db.pragma('cache_size = -262144');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    'INSERT INTO events (position, stream_name, revision, event_id, type, data, metadata, recorded_at, hash, salts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const data = DATA_JSON;
  const metadata = METADATA_JSON;
  const recordedAt = new Date().toISOString();
  let prev = GENESIS_HASH;
  let checkpoints = 0;
  const put = (streamName: string, revision: number, type: string, d: string, position: number) => {
    const id = randomUUID();
    const fields = { position, streamName, revision, id, type, data: d, metadata, recordedAt };
    const { salts, digest } = commitNew(fields);
    prev = linkHash(prev, digest);
    insert.run(position, streamName, revision, id, type, d, metadata, recordedAt, prev, salts);
  };
  const chunk = db.transaction((from: number) => {
    for (let p = from; p < from + 10_000 && p <= count; p++) {
      if (p % (CHECKPOINT_EVERY + 1) === 0) {
        const signed = signCheckpoint(key.privateKey, key.publicKey, p - 1, prev);
        put(CHECKPOINT_STREAM, checkpoints++, CHECKPOINT_TYPE, JSON.stringify(signed), p);
      } else {
        put(`seed-${p % 1000}`, Math.floor(p / 1000), 'Seeded', data, p);
      }
    }
  });
  for (let from = 1; from <= count; from += 10_000) chunk.immediate(from);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return key.publicKey;
}

/** Wall and CPU milliseconds of one verify (CPU: this process's, workers' included). */
async function timed(
  run: () => Promise<ChainSummary>,
): Promise<{ summary: ChainSummary; ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const summary = await run();
  const ms = performance.now() - start;
  const { user, system } = process.cpuUsage(cpu);
  return { summary, ms, cpuMs: (user + system) / 1000 };
}

async function main(): Promise<void> {
  const base = process.env.BENCH_DIR ?? tmpdir();
  if (base.startsWith('/dev/shm')) throw new Error('BENCH_DIR must be on a real disk');
  const dir = mkdtempSync(join(base, 'sb-audit-bench-'));
  try {
    console.log(`audit benchmark: 1 KB events, synchronous=FULL, files in ${dir}`);
    if (VERIFY_ONLY) {
      await benchVerify(dir);
      return;
    }
    if (PROFILE) {
      let run = 0;
      await writersRun(join(dir, 'warm-on.sqlite'), true);
      await writersRun(join(dir, 'warm-off.sqlite'), false);
      await profileChain(async (chain) => {
        await writersRun(join(dir, `p-${run++}.sqlite`), chain);
        return WRITERS_EVENTS;
      }, ROUNDS);
      return;
    }
    await benchChainCost(dir, line, ROUNDS);

    if (!CHAIN_ONLY) await laterParts(dir);
    // The machine may be shared: the load says how much of a core the figures above had.
    line(
      'load average (1, 5, 15 min)',
      loadavg()
        .map((l) => l.toFixed(1))
        .join(', '),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Parts 2 to 4: verify, state at a position, turn snapshots. */
async function laterParts(dir: string): Promise<void> {
  await benchVerify(dir);
  await benchStateAt(dir, line);
  await benchTurnSnapshots(dir, line);
}

/** Part 2: verify, one walk through the port and the CLI's parallel ranges. */
async function benchVerify(dir: string): Promise<void> {
  const file = join(dir, 'verify.sqlite');
  const seedStart = performance.now();
  const publicKey = seedChained(file, VERIFY_EVENTS);
  line(
    `seeding ${VERIFY_EVENTS} chained events (raw)`,
    `${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );
  const walk = await timed(async () => {
    const store = SqliteEventStore.open({ path: file });
    try {
      return await verifyStore(store, publicKey);
    } finally {
      await store.close();
    }
  });
  const ranges = await timed(() => verifyFile(file, publicKey));
  for (const [label, r] of [
    ['one walk through the port', walk],
    [`parallel ranges, ${availableParallelism()} workers (the CLI)`, ranges],
  ] as const) {
    if (r.summary.problem || r.summary.events !== VERIFY_EVENTS) {
      throw new Error(
        `verify failed: ${JSON.stringify(r.summary.problem)} after ${r.summary.events}`,
      );
    }
    line(
      `verify over ${VERIFY_EVENTS} events, ${label}`,
      `${rate(VERIFY_EVENTS, r.ms)} events/s (${rate(VERIFY_EVENTS, r.cpuMs)} per CPU-second)`,
    );
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
