/**
 * Command pipeline and projection figures (part of `npm run bench:store`):
 *  - pipeline (read + fold + decide + append + result) p50/p99 at an offered 1,000 commands/s,
 *    open loop: latency counts from when a command was due, so queueing shows;
 *  - the same with read-your-writes (waiting for the projections, as the API does);
 *  - the projection runner catching up over 1M events, and a rebuild into a fresh file.
 * Prints one figure a line. Run by hand; figures go in the issue notes, never in tests.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sessionDecider, sessionStream, type SessionCommand } from '@sessionboxer/domain';
import { CommandHandler, type NewEvent } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import {
  allProjections,
  ProjectionRunner,
  rebuildReadModels,
  SqliteReadModelStore,
} from '@sessionboxer/projections';

const RATE = 1000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SESSIONS = 200;
const MILLION = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const actor = { kind: 'person', id: 'bench' } as const;
const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const meta = () => ({ commandId: randomUUID(), at: new Date().toISOString(), actor });

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function createCommand(sessionId: string): SessionCommand {
  return {
    type: 'CreateSession',
    data: {
      sessionId,
      title: `Bench ${sessionId.slice(0, 8)}`,
      provider: 'claude-code',
      model: 'default',
      environment: 'docker-linux',
      createdBy: null,
      forkedFrom: null,
    },
    metadata: meta(),
  };
}

/** Offers RATE commands/s for SECONDS, open loop; returns each command's latency in ms. */
async function openLoop(run: (i: number) => Promise<unknown>): Promise<number[]> {
  const total = RATE * SECONDS;
  const start = now();
  const pending: Promise<number>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / RATE;
    while (now() < due) await new Promise((r) => setImmediate(r));
    pending.push(run(i).then(() => now() - due));
  }
  return (await Promise.all(pending)).sort((a, b) => a - b);
}

async function pipelineFigures(dir: string): Promise<void> {
  const store = SqliteEventStore.open({ path: path.join(dir, 'pipeline.sqlite') });
  const readModels = SqliteReadModelStore.open({ path: path.join(dir, 'pipeline-rm.sqlite') });
  const runner = new ProjectionRunner({
    eventStore: store,
    store: readModels,
    projections: allProjections,
  });
  await runner.start();
  const handler = new CommandHandler(store);
  const ids = Array.from({ length: SESSIONS }, () => randomUUID());
  for (const id of ids) await handler.handle(sessionDecider, sessionStream(id), createCommand(id));
  const rename = (i: number): SessionCommand => {
    const sessionId = ids[i % SESSIONS];
    return { type: 'SetSessionTitle', data: { sessionId, title: `Title ${i}` }, metadata: meta() };
  };
  const plain = await openLoop((i) =>
    handler.handle(sessionDecider, sessionStream(ids[i % SESSIONS]), rename(i)),
  );
  line('pipeline at 1,000 commands/s: p50', pct(plain, 50), 'ms');
  line('pipeline at 1,000 commands/s: p99', pct(plain, 99), 'ms');
  const ryw = await openLoop(async (i) => {
    const r = await handler.handle(
      sessionDecider,
      sessionStream(ids[i % SESSIONS]),
      rename(i + 1_000_000),
    );
    if (r.position !== null) await runner.waitForPosition(r.position, 30_000);
  });
  line('pipeline + read-your-writes at 1,000 commands/s: p50', pct(ryw, 50), 'ms');
  line('pipeline + read-your-writes at 1,000 commands/s: p99', pct(ryw, 99), 'ms');
  await runner.stop();
  readModels.close();
  await store.close();
}

/** 1M session events: each session created, then renamed, stopped and resumed in turn. */
async function seed(file: string, total: number): Promise<void> {
  const store = SqliteEventStore.open({ path: file, synchronous: 'NORMAL' });
  const perSession = 10;
  const at = new Date().toISOString();
  const batch = (sessionId: string): NewEvent[] =>
    Array.from({ length: perSession }, (_, i) => {
      const m = { commandId: randomUUID(), correlationId: 'seed', causationId: 'seed', actor, at };
      if (i === 0)
        return {
          id: randomUUID(),
          type: 'SessionCreated',
          data: { ...createCommand(sessionId).data, at },
          metadata: m,
        };
      if (i % 3 === 0)
        return {
          id: randomUUID(),
          type: 'SessionStopped',
          data: { sessionId, reason: null, at },
          metadata: m,
        };
      if (i % 3 === 1 && i > 1)
        return { id: randomUUID(), type: 'SessionResumed', data: { sessionId, at }, metadata: m };
      return {
        id: randomUUID(),
        type: 'SessionTitleSet',
        data: { sessionId, title: `T${i}`, previousTitle: `T${i - 1}`, at },
        metadata: m,
      };
    });
  const sessions = total / perSession;
  for (let s = 0; s < sessions; s += 256) {
    const n = Math.min(256, sessions - s);
    await Promise.all(
      Array.from({ length: n }, () => {
        const id = randomUUID();
        return store.appendToStream(sessionStream(id), batch(id), {
          expectedRevision: 'no_stream',
        });
      }),
    );
  }
  await store.close();
}

async function projectionFigures(dir: string): Promise<void> {
  const file = path.join(dir, 'million.sqlite');
  let t = now();
  await seed(file, MILLION);
  line(
    `seeded ${MILLION.toLocaleString('en')} events (adapter, synchronous=NORMAL)`,
    MILLION / ((now() - t) / 1000),
    'events/s',
  );
  const store = SqliteEventStore.open({ path: file });
  const head = await store.headPosition();
  const readModels = SqliteReadModelStore.open({ path: path.join(dir, 'live-rm.sqlite') });
  const runner = new ProjectionRunner({
    eventStore: store,
    store: readModels,
    projections: allProjections,
  });
  t = now();
  await runner.start();
  await runner.waitForPosition(head, 600_000);
  line(
    `projection runner catch-up over ${MILLION.toLocaleString('en')} events`,
    MILLION / ((now() - t) / 1000),
    'events/s',
  );
  await runner.stop();
  readModels.close();
  t = now();
  await rebuildReadModels({
    eventStore: store,
    path: path.join(dir, 'rebuilt-rm.sqlite'),
    projections: allProjections,
  });
  line(
    `projection rebuild over ${MILLION.toLocaleString('en')} events (fresh file)`,
    MILLION / ((now() - t) / 1000),
    'events/s',
  );
  await store.close();
}

function line(label: string, value: number, unit: string): void {
  console.log(`${label}: ${value.toFixed(unit === 'ms' ? 2 : 0)} ${unit}`);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'sb-bench-pipeline-'));
  try {
    await pipelineFigures(dir);
    await projectionFigures(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
