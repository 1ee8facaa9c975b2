/**
 * Child process for the cross-process subscription test: opens the store file given on the
 * command line and appends `count` single-event appends to `stream`, one after another.
 * Usage: node -r @swc-node/register append-events.ts <file> <stream> <count>
 */
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';

async function main(): Promise<void> {
  const [path, stream, count] = process.argv.slice(2);
  const store = SqliteEventStore.open({ path });
  for (let n = 0; n < Number(count); n++) {
    const id = randomUUID();
    await store.appendToStream(stream, [
      {
        id,
        type: 'AppendedElsewhere',
        data: { n, pid: process.pid },
        metadata: {
          commandId: id,
          correlationId: id,
          causationId: id,
          actor: { kind: 'system', id: 'child' },
          at: new Date().toISOString(),
        },
      },
    ]);
  }
  await store.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
