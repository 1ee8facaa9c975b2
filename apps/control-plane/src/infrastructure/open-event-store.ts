import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppendObserver, EventStore } from '@sessionboxer/event-store';
import { openEventStore as open } from '@sessionboxer/event-store/open-event-store';
import type { AppConfig } from '../config';

export function eventStorePath(config: AppConfig): string {
  return path.join(config.dataDir, 'events.sqlite');
}

/**
 * The data dir holds the event log, the secrets and every box's workspace: only the control
 * plane's user may enter it (0700, also when it existed before with a wider mode). Boxes
 * reach their own folders through binds the control plane makes, not through this path.
 */
export function ensureDataDir(config: AppConfig): void {
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(config.dataDir, 0o700);
}

/** The event store the configuration names, saying which one at start. */
export function openEventStore(config: AppConfig, observer?: AppendObserver): EventStore {
  ensureDataDir(config);
  const { store, kind } = open({
    eventStoreUrl: config.eventStoreUrl,
    sqlitePath: eventStorePath(config),
    observer,
  });
  const where =
    kind === 'sqlite'
      ? `the embedded SQLite event store at ${eventStorePath(config)}`
      : 'EventStoreDB (EVENTSTORE_URL)';
  new Logger('EventStore').log(`using ${where}`);
  return store;
}

/**
 * Each instance keeps its own read models (its projections run on its own): `read-models.sqlite`
 * for the default instance, `read-models-<instance>.sqlite` for a named one.
 */
export function readModelPath(config: AppConfig): string {
  ensureDataDir(config);
  const { instance } = config.operations;
  const name = instance === 'default' ? 'read-models.sqlite' : `read-models-${instance}.sqlite`;
  return path.join(config.dataDir, name);
}
