/**
 * The chain's statements over one connection: the head (position, hash and time of the last event),
 * the highest position ever handed out, `PRAGMA data_version`, and the insert with the link.
 */
import type Database from 'better-sqlite3';
import type { SerializedEvent } from '../append-validation';

export interface HeadRow {
  position: number;
  hash: Buffer | null;
  recorded_at: string;
}

export class ChainTable {
  private readonly headStmt: Database.Statement<[], HeadRow>;
  private readonly seqStmt: Database.Statement<[], number>;
  private readonly insertStmt: Database.Statement<
    [number, string, number, string, string, string, string, string, Buffer, Buffer]
  >;
  private readonly dataVersionStmt: Database.Statement<[], number>;

  constructor(db: Database.Database) {
    this.headStmt = db.prepare(
      'SELECT position, hash, recorded_at FROM events ORDER BY position DESC LIMIT 1',
    );
    this.seqStmt = db
      .prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'events'")
      .pluck();
    this.insertStmt = db.prepare(
      'INSERT INTO events (position, stream_name, revision, event_id, type, data, metadata, recorded_at, hash, salts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.dataVersionStmt = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  head(): HeadRow | undefined {
    return this.headStmt.get();
  }

  /** Changes when another connection commits (not when this one does). */
  dataVersion(): number {
    return this.dataVersionStmt.get() as number;
  }

  /** The highest position ever handed out (AUTOINCREMENT's counter), 0 when none. */
  lastIssued(): number {
    return this.seqStmt.get() ?? 0;
  }

  insert(
    position: number,
    streamName: string,
    revision: number,
    e: SerializedEvent,
    at: string,
    hash: Buffer,
    salts: Buffer,
  ): void {
    const { id, type, data, metadata } = e;
    this.insertStmt.run(position, streamName, revision, id, type, data, metadata, at, hash, salts);
  }
}
