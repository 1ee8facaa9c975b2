import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import type { EventStore } from '@sessionboxer/event-store';
import { openEventStore as open } from '@sessionboxer/event-store/open-event-store';
import type { AppConfig } from '../config';

export function eventStorePath(config: AppConfig): string {
  return path.join(config.dataDir, 'events.sqlite');
}

/** The event store the configuration names, saying which one at start. */
export function openEventStore(config: AppConfig): EventStore {
  const { store, kind } = open({
    eventStoreUrl: config.eventStoreUrl,
    sqlitePath: eventStorePath(config),
  });
  const where =
    kind === 'sqlite'
      ? `the embedded SQLite event store at ${eventStorePath(config)}`
      : 'EventStoreDB (EVENTSTORE_URL)';
  new Logger('EventStore').log(`using ${where}`);
  return store;
}

export function readModelPath(config: AppConfig): string {
  fs.mkdirSync(config.dataDir, { recursive: true });
  return path.join(config.dataDir, 'read-models.sqlite');
}
