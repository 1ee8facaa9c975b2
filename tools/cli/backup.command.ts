/**
 * `backup`: a consistent copy of the SQLite event store taken while the control plane writes
 * it, with SQLite's online backup on a read connection of its own.
 */
import * as fs from 'node:fs';
import Database from 'better-sqlite3';
import { ProgressBar } from './progress';
import { inspectStore, type StoreFacts } from './store-files';

export interface BackupOptions {
  /** The live events.sqlite. */
  source: string;
  dest: string;
  force: boolean;
  /** Pages copied per step (the bar moves once a step). */
  pagesPerStep?: number;
}

export interface BackupReport extends StoreFacts {
  dest: string;
  pages: number;
}

/**
 * The copy is the store as one read transaction sees it: the connection opens it before the
 * first step and keeps it to the last, so every step reads the same snapshot (in WAL mode the
 * control plane's commits go on beside it and the backup never restarts), and the copy ends
 * at a commit: no transaction is torn. It is written beside `dest` and renamed onto it at the
 * end, so a failed backup leaves an older file at `dest` as it was.
 */
export async function backupCommand(options: BackupOptions): Promise<BackupReport> {
  const { source, dest } = options;
  if (!fs.existsSync(source)) throw new Error(`no event store at ${source}`);
  if (fs.existsSync(dest) && !options.force) {
    throw new Error(`${dest} exists: pass --force to overwrite it`);
  }
  if (fs.existsSync(dest) && fs.statSync(dest).isDirectory()) {
    throw new Error(`${dest} is a folder: name the backup file`);
  }
  const partial = `${dest}.partial-${process.pid}`;
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.exec('BEGIN');
    db.prepare('SELECT max(position) FROM events').get(); // the snapshot starts here
    const bar = new ProgressBar('backup', process.stderr, 1, 'pages');
    const step = options.pagesPerStep ?? 256;
    const result = await db.backup(partial, {
      progress: ({ totalPages, remainingPages }) => {
        bar.update(totalPages - remainingPages, totalPages);
        return step;
      },
    });
    bar.update(result.totalPages, result.totalPages);
    bar.done();
    db.exec('COMMIT');
    selfContained(partial);
    const facts = inspectStore(partial);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, dest);
    return { ...facts, dest, pages: result.totalPages };
  } catch (e) {
    fs.rmSync(partial, { force: true });
    throw e;
  } finally {
    db.close();
  }
}

/**
 * The copy keeps the source's WAL flag; a rollback journal makes it one file that opens
 * read-only without leaving -wal and -shm files beside it (a restore turns WAL on again).
 */
function selfContained(file: string): void {
  const copy = new Database(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

export function formatBackupReport(r: BackupReport): string {
  return `backup of ${r.events} events (up to position ${r.head}, schema ${r.schema}, ${r.pages} pages) written to ${r.dest}`;
}
