/**
 * Part 1 of `npm run bench:audit`: what the hash chain costs bench:store's 64-writer run
 * (64 writers × 250 single-event appends, group commit, synchronous=FULL), with the chain and
 * without it (`hashChain: false`, for this comparison only), in alternating rounds on fresh
 * files so disk drift lands on both. Printed: the rates over all rounds, the median of each
 * round's pair (the disk's fsync time swings from round to round, and one slow round moves the
 * totals), the process's CPU per event, and where the chain's digests and links were made.
 */
import { join } from 'node:path';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { event, rate } from './bench-events';

const WRITERS = 64;
const EVENTS_PER_WRITER = 250;
export const WRITERS_EVENTS = WRITERS * EVENTS_PER_WRITER;

interface Digests {
  ahead: number;
  linked: number;
  here: number;
}

interface Run {
  ms: number;
  cpuMs: number;
  digests: Digests;
}

/** One 64-writer run on a new file; its milliseconds, CPU milliseconds and digests' origin. */
export async function writersRun(file: string, hashChain: boolean): Promise<Run> {
  const store = SqliteEventStore.open({ path: file, hashChain });
  const writer = async (w: number): Promise<void> => {
    for (let i = 0; i < EVENTS_PER_WRITER; i++) {
      await store.appendToStream(`writer-${w}`, [event()], { expectedRevision: i - 1 });
    }
  };
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  const ms = performance.now() - start;
  const { user, system } = process.cpuUsage(cpu);
  const { digests } = store.stats();
  await store.close();
  return { ms, cpuMs: (user + system) / 1000, digests };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function benchChainCost(
  dir: string,
  line: (label: string, value: string) => void,
  rounds: number,
): Promise<void> {
  const runs = { on: [] as Run[], off: [] as Run[] };
  // A first pair warms the JIT, the disk and the digest thread, and is not counted.
  for (let round = -1; round < rounds; round++) {
    for (const mode of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      const took = await writersRun(join(dir, `w-${round}-${mode}.sqlite`), mode === 'on');
      if (round >= 0) runs[mode].push(took);
    }
  }
  const events = WRITERS_EVENTS * rounds;
  const sum = (mode: 'on' | 'off', f: (r: Run) => number) =>
    runs[mode].reduce((s, r) => s + f(r), 0);
  const on = rate(
    events,
    sum('on', (r) => r.ms),
  );
  const off = rate(
    events,
    sum('off', (r) => r.ms),
  );
  const cpu = (mode: 'on' | 'off') =>
    `${((sum(mode, (r) => r.cpuMs) * 1000) / events).toFixed(1)} µs`;
  const slower = (a: number, b: number) => ((a - b) / a) * 100;
  line(
    `${WRITERS} concurrent writers, without the chain`,
    `${off} events/s (CPU ${cpu('off')} per event)`,
  );
  line(
    `${WRITERS} concurrent writers, with the chain`,
    `${on} events/s (CPU ${cpu('on')} per event)  (${slower(off, on).toFixed(1)} % slower)`,
  );
  const pairs = runs.on.map((r, i) =>
    slower(WRITERS_EVENTS / runs.off[i].ms, WRITERS_EVENTS / r.ms),
  );
  line(
    `  ${rounds} rounds' pairs, median`,
    `${median(pairs).toFixed(1)} % slower (each: ${pairs.map((p) => p.toFixed(1)).join(', ')})`,
  );
  const total = sum('on', (r) => r.digests.ahead + r.digests.here);
  const share = (n: number) => `${((n / Math.max(1, total)) * 100).toFixed(1)} %`;
  line('  of the digests, made by the digest thread', share(sum('on', (r) => r.digests.ahead)));
  line('  of the links, made there too', share(sum('on', (r) => r.digests.linked)));
}
