/**
 * `npm run bench:projections`: what a restore and a new control-plane instance pay, over
 * BENCH_EVENTS (default 1,000,000) events of a realistic log (session-workload.ts):
 *
 *   1. rebuild: every read model from position 0 into a fresh file (rebuildReadModels);
 *   2. catch-up: the projection runner started on an empty read-model file, until it has
 *      applied the head (what a new instance, or one back from a long stop, does).
 *
 * Each is timed on its own, then run again under the V8 CPU profiler (BENCH_PROFILE=0 skips
 * that) to print where the time goes: self time by kind of work and the top frames.
 * Goal: ≥ 50,000 events/s for both. Files on the real disk (BENCH_DIR, default the temp dir).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import {
  allProjections,
  ProjectionRunner,
  rebuildReadModels,
  SqliteReadModelStore,
} from '@sessionboxer/projections';
import { printProfile, profiled } from './cpu-profile';
import { rate } from './bench-events';
import { appendWorkload } from './session-workload';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const PROFILE = process.env.BENCH_PROFILE !== '0';

function line(label: string, value: string): void {
  console.log(`${label.padEnd(52)} ${value}`);
}

async function rebuild(store: SqliteEventStore, path: string): Promise<number> {
  const result = await rebuildReadModels({ eventStore: store, path, projections: allProjections });
  const failed = result.checkpoints.filter((c) => c.failure !== null);
  if (failed.length > 0) throw new Error(`rebuild failed: ${JSON.stringify(failed)}`);
  return result.eventsDone;
}

async function catchUp(store: SqliteEventStore, path: string): Promise<void> {
  const head = await store.headPosition();
  const readModels = SqliteReadModelStore.open({ path });
  const runner = new ProjectionRunner({
    eventStore: store,
    store: readModels,
    projections: allProjections,
  });
  try {
    await runner.start();
    await runner.waitForPosition(head, 3_600_000);
    const failed = runner.status().filter((c) => c.failure !== null);
    if (failed.length > 0) throw new Error(`catch-up failed: ${JSON.stringify(failed)}`);
  } finally {
    await runner.stop();
    readModels.close();
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

async function main(): Promise<void> {
  const base = process.env.BENCH_DIR ?? tmpdir();
  const dir = mkdtempSync(join(base, 'sb-projections-bench-'));
  const file = (name: string) => join(dir, `${name}.sqlite`);
  try {
    console.log(`projection benchmark: ${EVENTS.toLocaleString('en')} events, files in ${dir}`);
    const seeding = SqliteEventStore.open({ path: file('events'), synchronous: 'NORMAL' });
    let count = 0;
    const seedMs = await timed(async () => (count = await appendWorkload(seeding, EVENTS)));
    await seeding.close();
    line(
      `seeded ${count.toLocaleString('en')} events (adapter, NORMAL)`,
      `${rate(count, seedMs)} events/s`,
    );
    const store = SqliteEventStore.open({ path: file('events') });
    try {
      const rebuildMs = await timed(() => rebuild(store, file('rebuilt')));
      line('rebuild (fresh file)', `${rate(count, rebuildMs)} events/s`);
      const catchUpMs = await timed(() => catchUp(store, file('caught-up')));
      line('catch-up (projection runner, empty read models)', `${rate(count, catchUpMs)} events/s`);
      if (PROFILE) {
        printProfile('rebuild', await profiled(() => rebuild(store, file('rebuilt-2'))));
        printProfile('catch-up', await profiled(() => catchUp(store, file('caught-up-2'))));
      }
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
