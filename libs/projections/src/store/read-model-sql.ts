/**
 * The SQL of the SQLite read-model store (sqlite-read-model-store.ts): the statements per
 * projection table and over the checkpoint tables, and how rows become documents.
 */
import type Database from 'better-sqlite3';
import type { Checkpoint, ProjectionFailure, StoredDocument } from './read-model-store';

export const NAME = /^[a-z][a-z0-9_]*$/;

export interface DocRow {
  id: string;
  partition: string;
  ord: number;
  doc: string;
}

export interface CheckpointRow {
  projection: string;
  version: number;
  position: number;
  failure: string | null;
}

/** The statements over the checkpoint tables (which `open` creates before preparing them). */
export function prepareCheckpointSql(db: Database.Database) {
  return {
    save: db.prepare(
      `INSERT INTO checkpoints (projection, version, position, failure) VALUES (?, ?, ?, ?)
       ON CONFLICT(projection) DO UPDATE SET version = excluded.version,
         position = excluded.position, failure = excluded.failure`,
    ),
    get: db.prepare('SELECT * FROM checkpoints WHERE projection = ?'),
    all: db.prepare('SELECT * FROM checkpoints ORDER BY projection'),
    saveReactor: db.prepare(
      `INSERT INTO reactor_checkpoints (reactor, position, failure) VALUES (?, ?, ?)
       ON CONFLICT(reactor) DO UPDATE SET position = excluded.position, failure = excluded.failure`,
    ),
    getReactor: db.prepare('SELECT position, failure FROM reactor_checkpoints WHERE reactor = ?'),
  };
}

export const SQL = {
  get: (t: string) => `SELECT doc FROM ${t} WHERE id = ?`,
  list: (t: string) =>
    `SELECT * FROM ${t} WHERE partition = @partition AND (@after IS NULL OR ord > @after)
     ORDER BY ord, id LIMIT @limit`,
  scan: (t: string) => `SELECT * FROM ${t} ORDER BY id`,
  count: (t: string) => `SELECT count(*) AS n FROM ${t}`,
  delete: (t: string) => `DELETE FROM ${t} WHERE id = ?`,
  // An update without partition/order keeps the document's own (see DocumentChange).
  // Parameters: id, partition, ord, doc, then partition and ord again for the update.
  upsert: (t: string) =>
    `INSERT INTO ${t} (id, partition, ord, doc) VALUES (?, COALESCE(?, ''), COALESCE(?, 0), ?)
     ON CONFLICT(id) DO UPDATE SET partition = COALESCE(?, partition),
       ord = COALESCE(?, ord), doc = excluded.doc`,
};

export function tableOf(projectionName: string): string {
  if (!NAME.test(projectionName)) {
    throw new Error(`bad projection name ${JSON.stringify(projectionName)}: use [a-z0-9_]`);
  }
  return `rm_${projectionName}`;
}

export function toStored<Doc>(row: DocRow): StoredDocument<Doc> {
  return { id: row.id, partition: row.partition, order: row.ord, doc: JSON.parse(row.doc) as Doc };
}

export function toCheckpoint(row: CheckpointRow): Checkpoint {
  const failure = row.failure === null ? null : (JSON.parse(row.failure) as ProjectionFailure);
  return { projection: row.projection, version: row.version, position: row.position, failure };
}
