/**
 * The data folder's store files as `backup` and `restore` see them: where the folder comes
 * from, whether a file is an event store, and whether anything has a store open.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';

export interface DataDir {
  dir: string;
  /** Said to the operator: the same order the control plane reads (config.ts). */
  from: string;
}

/** --data, else SESSIONBOXER_DATA_DIR, else ./data: what the control plane would use. */
export function resolveDataDir(flag: string | undefined, env = process.env): DataDir {
  if (flag) return { dir: path.resolve(flag), from: '--data' };
  if (env.SESSIONBOXER_DATA_DIR) {
    return { dir: path.resolve(env.SESSIONBOXER_DATA_DIR), from: 'SESSIONBOXER_DATA_DIR' };
  }
  return { dir: path.resolve('./data'), from: 'the default ./data (SESSIONBOXER_DATA_DIR unset)' };
}

export const EVENTS_FILE = 'events.sqlite';
export const READ_MODELS_FILE = 'read-models.sqlite';
/** The schema versions of events.sqlite this code opens (schema.ts migrates 1 and 2 to 3). */
export const KNOWN_SCHEMAS = [1, 2, 3];
const EVENT_COLUMNS = ['position', 'stream_name', 'revision', 'event_id', 'type', 'data'];

/** A SQLite file and the two WAL files beside it that belong to it. */
export function withSidecars(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}

export interface StoreFacts {
  schema: number;
  events: number;
  head: number;
}

/** Why `file` is not an event store this code can restore, or its facts. Opens it read-only. */
export function inspectStore(file: string): StoreFacts {
  const head = Buffer.alloc(16);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head.toString('latin1') !== 'SQLite format 3\0') {
    throw new Error(`${file} is not an event store: not a SQLite file`);
  }
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const schema = db.pragma('user_version', { simple: true }) as number;
    const columns = db
      .prepare<[], string>("SELECT name FROM pragma_table_info('events')")
      .pluck()
      .all();
    const missing = EVENT_COLUMNS.filter((c) => !columns.includes(c));
    if (!KNOWN_SCHEMAS.includes(schema) || missing.length > 0) {
      const why = missing.length ? `no events table with ${missing.join(', ')}` : 'its schema';
      throw new Error(
        `${file} is not an event store this code knows: ${why} (schema version ${schema}; known: ${KNOWN_SCHEMAS.join(', ')})`,
      );
    }
    const row = db
      .prepare<[], { events: number; head: number | null }>(
        'SELECT count(*) AS events, max(position) AS head FROM events',
      )
      .get();
    return { schema, events: row?.events ?? 0, head: row?.head ?? 0 };
  } finally {
    db.close();
  }
}

/** An exclusive SQLite lock on a store file, held until released. */
export interface StoreLock {
  /** Its events and head, read through the lock (no other connection may open it now). */
  describe(): string;
  release(): void;
}

/**
 * How `restore` knows no control plane runs on the folder: every process that has the store
 * open (a control plane, a `replay`, a `verify`) holds a SQLite lock on it for as long as it
 * is open (WAL mode keeps a shared lock), so an exclusive lock is granted only when none has.
 * The OS drops the locks of a process that dies, so a kill -9 leaves no stale pid file to
 * clear. Releasing checkpoints the WAL into the file (the last connection's close does).
 * Throws, naming the file, when something has it open.
 */
export function lockStore(file: string): StoreLock {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
    throw new Error(
      `${file} is open in another process (a running control plane, or a sessionboxer command): stop it before restoring`,
    );
  }
  return {
    describe: () => {
      try {
        const row = db
          .prepare<[], { n: number; head: number | null }>(
            'SELECT count(*) AS n, max(position) AS head FROM events',
          )
          .get();
        return `${row?.n ?? 0} events, head ${row?.head ?? 0}`;
      } catch (e) {
        return `which does not read as an event store: ${e instanceof Error ? e.message : String(e)}`;
      }
    },
    release: () => {
      db.exec('ROLLBACK');
      db.close();
    },
  };
}
