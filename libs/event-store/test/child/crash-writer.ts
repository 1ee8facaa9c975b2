/**
 * Child process for the crash test: W concurrent writers append 3-event batches to their own
 * streams, forever, each at the exact revision it expects. After an append's promise
 * resolves, and only then, it prints one JSON line describing it. The parent kills this
 * process with SIGKILL at a random moment and checks the file against what was printed.
 * Usage: node -r @swc-node/register crash-writer.ts <file> <writers>
 */
import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';

/** One line of this process's stdout: an append the store acknowledged. */
export interface AckLine {
  stream: string;
  /** Revision of the batch's last event. */
  revision: number;
  ids: string[];
  position: number;
}

/** Data of every event this writer appends, so the parent can check the content survived. */
export interface CrashEventData {
  batch: string;
  index: number;
  size: number;
  pad: string;
}

const BATCH = 3;

function batch(): NewEvent[] {
  const batchId = randomUUID();
  return Array.from({ length: BATCH }, (_, index) => {
    const id = randomUUID();
    const data: CrashEventData = { batch: batchId, index, size: BATCH, pad: id.repeat(8) };
    const at = new Date().toISOString();
    const metadata = { commandId: batchId, correlationId: batchId, causationId: batchId, at };
    return {
      id,
      type: 'CrashTested',
      data,
      metadata: { ...metadata, actor: { kind: 'system', id: 'crash' } },
    };
  });
}

async function writer(store: SqliteEventStore, stream: string): Promise<never> {
  const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
  let revision = last ? last.revision : -1;
  for (;;) {
    const events = batch();
    const r = await store.appendToStream(stream, events, { expectedRevision: revision });
    revision = r.nextExpectedRevision;
    const line: AckLine = { stream, revision, ids: events.map((e) => e.id), position: r.position };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}

async function main(): Promise<void> {
  const [path, writers] = process.argv.slice(2);
  const store = SqliteEventStore.open({ path });
  process.stdout.write('ready\n');
  await Promise.all(
    Array.from({ length: Number(writers) }, (_, w) => writer(store, `crash-w${w}`)),
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
