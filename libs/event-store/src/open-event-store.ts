import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AppendObserver } from './append-observer';
import type { EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite';

export interface OpenEventStoreOptions {
  /** EventStoreDB connection string; when set, it wins over the SQLite file. */
  eventStoreUrl: string | null;
  /** The embedded store's file (its folder is created when missing). */
  sqlitePath: string;
  /** Refuse to create a SQLite file that is not there (tools that only read). */
  mustExist?: boolean;
  /** Told of the SQLite store's commits and appends (EventStoreDB tells nothing). */
  observer?: AppendObserver;
}

export type EventStoreKind = 'sqlite' | 'eventstoredb';

/** Opens the adapter the configuration names: EventStoreDB when a URL is set, else SQLite. */
export function openEventStore(options: OpenEventStoreOptions): {
  store: EventStore;
  kind: EventStoreKind;
} {
  if (options.eventStoreUrl) {
    // Loaded only when asked for: the gRPC client costs ~130 ms at start-up.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { EventStoreDbEventStore } = require('./eventstoredb') as typeof import('./eventstoredb');
    return { store: EventStoreDbEventStore.connect(options.eventStoreUrl), kind: 'eventstoredb' };
  }
  if (options.mustExist && !fs.existsSync(options.sqlitePath)) {
    throw new Error(`no event store at ${options.sqlitePath}`);
  }
  fs.mkdirSync(path.dirname(options.sqlitePath), { recursive: true });
  return {
    store: SqliteEventStore.open({ path: options.sqlitePath, observer: options.observer }),
    kind: 'sqlite',
  };
}
