/**
 * One writer process of bench:store's multi-process figure (store-processes.ts), started with
 * `fork`: opens the file, says `ready`, on `go` runs `writers` concurrent loops each appending
 * `appends` single 1 KB events to a stream of its own at the expected revision, then sends
 * back its append latencies (ms) and exits.
 * Usage: store-writer.ts <file> <writers> <appends>
 */
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { event } from './bench-events';

async function main(): Promise<void> {
  const [file, writers, appends] = process.argv.slice(2);
  const store = SqliteEventStore.open({ path: file });
  await new Promise<void>((go) => {
    process.once('message', () => go());
    process.send?.('ready');
  });
  const latencies: number[] = [];
  const writer = async (w: number): Promise<void> => {
    const stream = `writer-${process.pid}-${w}`;
    for (let i = 0; i < Number(appends); i++) {
      const t = performance.now();
      await store.appendToStream(stream, [event()], { expectedRevision: i - 1 });
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: Number(writers) }, (_, w) => writer(w)));
  await store.close();
  await new Promise<void>((sent) => process.send?.(latencies, () => sent()));
  process.disconnect();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
