/**
 * Schema 1 → 2: adds the `hash` column and chains every event already there, in position order,
 * inside the caller's transaction (a crash midway leaves the file at version 1, untouched).
 * The append-only update trigger is dropped for the pass and made again by the schema's DDL.
 */
import type Database from 'better-sqlite3';
import { chainHash, GENESIS_HASH, type ChainFields } from '../chain/canonical';

/** Called after each page of the migration with events chained so far and the total. */
export type MigrationProgress = (done: number, total: number) => void;

const PAGE = 10_000;

export function addChainToV1(db: Database.Database, onProgress?: MigrationProgress): void {
  db.exec('DROP TRIGGER IF EXISTS events_append_only_update');
  db.exec('ALTER TABLE events ADD COLUMN hash BLOB');
  const total = db.prepare<[], number>('SELECT count(*) FROM events').pluck().get() ?? 0;
  const page = db.prepare<[number, number], ChainFields>(
    `SELECT position, stream_name AS streamName, revision, event_id AS id, type, data, metadata,
       recorded_at AS recordedAt FROM events WHERE position > ? ORDER BY position LIMIT ?`,
  );
  const update = db.prepare<[Buffer, number]>('UPDATE events SET hash = ? WHERE position = ?');
  let prev = GENESIS_HASH;
  let after = 0;
  let done = 0;
  for (;;) {
    const rows = page.all(after, PAGE);
    for (const row of rows) {
      prev = chainHash(prev, row);
      update.run(prev, row.position);
      after = row.position;
    }
    done += rows.length;
    if (rows.length > 0) onProgress?.(done, total);
    if (rows.length < PAGE) break;
  }
}
