/**
 * Every SQL statement the SQLite adapter runs, prepared once, and the row → RecordedEvent
 * mapping. Nothing here knows about batching or subscriptions.
 */
import type Database from 'better-sqlite3';
import type { EventMetadata, RecordedEvent } from '../event-store.port';
import type { SerializedEvent } from '../append-validation';

/** A row of the events table as this adapter reads it (the `hash` column aside). */
export interface EventRow {
  position: number;
  stream_name: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

/** Where an event id already sits in its stream. */
export interface StoredIdRow {
  revision: number;
  position: number;
}

const COLUMNS = 'position, stream_name, revision, event_id, type, data, metadata, recorded_at';
/** SQLite reads a negative LIMIT as "no limit". */
export const NO_LIMIT = -1;

/** Prepared statements over the `events` table of one connection. */
export class EventTable {
  private readonly revisionStmt: Database.Statement<[string], number | null>;
  private readonly idStmt: Database.Statement<[string, string], StoredIdRow>;
  private readonly insertStmt: Database.Statement<
    [string, number, string, string, string, string, string]
  >;
  private readonly headStmt: Database.Statement<[], number | null>;
  private readonly dataVersionStmt: Database.Statement<[], number>;
  private readonly streamFwd: Database.Statement<[string, number, number], EventRow>;
  private readonly streamBwd: Database.Statement<[string, number, number], EventRow>;
  private readonly allFwd: Database.Statement<[number, number], EventRow>;
  private readonly allBwd: Database.Statement<[number, number], EventRow>;

  constructor(db: Database.Database) {
    this.revisionStmt = db
      .prepare<[string], number | null>('SELECT max(revision) FROM events WHERE stream_name = ?')
      .pluck();
    this.idStmt = db.prepare(
      'SELECT revision, position FROM events WHERE stream_name = ? AND event_id = ?',
    );
    this.insertStmt = db.prepare(
      'INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.headStmt = db.prepare<[], number | null>('SELECT max(position) FROM events').pluck();
    // Prepared once: every subscription that runs out of events asks it (db.pragma() prepares
    // the statement anew at each call).
    this.dataVersionStmt = db.prepare<[], number>('PRAGMA data_version').pluck();
    const stream = `SELECT ${COLUMNS} FROM events WHERE stream_name = ?`;
    this.streamFwd = db.prepare(`${stream} AND revision >= ? ORDER BY revision ASC LIMIT ?`);
    this.streamBwd = db.prepare(`${stream} AND revision <= ? ORDER BY revision DESC LIMIT ?`);
    this.allFwd = db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE position >= ? ORDER BY position ASC LIMIT ?`,
    );
    this.allBwd = db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE position <= ? ORDER BY position DESC LIMIT ?`,
    );
  }

  /** Revision of the stream's last event, -1 when the stream has none. */
  streamRevision(streamName: string): number {
    return this.revisionStmt.get(streamName) ?? -1;
  }

  /** Where `eventId` sits in the stream, if it is there. */
  findEventId(streamName: string, eventId: string): StoredIdRow | undefined {
    return this.idStmt.get(streamName, eventId);
  }

  /** Inserts one event and returns its global position. */
  insert(streamName: string, revision: number, event: SerializedEvent, recordedAt: string): number {
    const info = this.insertStmt.run(
      streamName,
      revision,
      event.id,
      event.type,
      event.data,
      event.metadata,
      recordedAt,
    );
    return Number(info.lastInsertRowid);
  }

  /** Position of the last event, -1 when the store is empty. */
  headPosition(): number {
    return this.headStmt.get() ?? -1;
  }

  /** Changes whenever another connection (another process) commits; see PRAGMA data_version. */
  dataVersion(): number {
    return this.dataVersionStmt.get() as number;
  }

  readStream(streamName: string, from: number, forwards: boolean, limit: number): RecordedEvent[] {
    const stmt = forwards ? this.streamFwd : this.streamBwd;
    return stmt.all(streamName, from, limit).map(toRecordedEvent);
  }

  readAll(from: number, forwards: boolean, limit: number): RecordedEvent[] {
    const stmt = forwards ? this.allFwd : this.allBwd;
    return stmt.all(from, limit).map(toRecordedEvent);
  }
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    streamName: row.stream_name,
    revision: row.revision,
    position: row.position,
    recordedAt: row.recorded_at,
  };
}
