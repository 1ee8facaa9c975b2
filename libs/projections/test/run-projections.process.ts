/**
 * A projection runner in its own process, for the crash test: it is killed with SIGKILL while
 * it applies events. Usage: node -r @swc-node/register run-projections.process.ts EVENTS READ MS
 * where MS slows each event down, so the kill surely lands in the middle of the work.
 */
import { SESSION_EVENT_TYPES } from '@sessionboxer/domain';
import type { EventStore, RecordedEvent, Subscription } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { allProjections, ProjectionRunner, SqliteReadModelStore } from '../src';
import { countingProjection } from './counting-projection';

export const sessionCounter = () => countingProjection({ handles: SESSION_EVENT_TYPES });

/** The same store, but every event of `$all` takes `ms` to arrive. */
function slowed(store: EventStore, ms: number): EventStore {
  const subscribeToAll: EventStore['subscribeToAll'] = (options) => {
    const inner = store.subscribeToAll(options);
    const events = inner[Symbol.asyncIterator]();
    const slow: Subscription = {
      close: () => inner.close(),
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<RecordedEvent>> => {
          await new Promise((resolve) => setTimeout(resolve, ms));
          return events.next();
        },
      }),
    };
    return slow;
  };
  return {
    appendToStream: (...args) => store.appendToStream(...args),
    readStream: (...args) => store.readStream(...args),
    readAll: (...args) => store.readAll(...args),
    subscribeToStream: (...args) => store.subscribeToStream(...args),
    subscribeToAll,
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
}

async function main(): Promise<void> {
  const [eventsPath, readPath, ms] = process.argv.slice(2);
  const eventStore = slowed(SqliteEventStore.open({ path: eventsPath }), Number(ms ?? 0));
  const store = SqliteReadModelStore.open({ path: readPath });
  const projections = [...allProjections, sessionCounter()];
  // Small batches, so the kill lands among many transactions rather than after one.
  const runner = new ProjectionRunner({ eventStore, store, projections, batchSize: 5 });
  await runner.start();
  process.stdout.write('started\n');
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
}
