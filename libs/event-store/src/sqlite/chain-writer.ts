/**
 * Writes events with their link in the hash chain (schema 3: salted commitments, see
 * chain/commitment.ts), inside the group committer's transaction: each insert takes the next
 * position and chains from the event before it, so a batch of several appends follows position
 * order. The head stays in memory between transactions: `begin`, inside the write lock, reads
 * it again only when `PRAGMA data_version` says another connection (another process) committed
 * since, or after `reset` (a transaction that rolled back). An append undone by its savepoint
 * puts the cursor back with `restore`.
 */
import type Database from 'better-sqlite3';
import type { SerializedEvent } from '../append-validation';
import { GENESIS_HASH, HASH_BYTES } from '../chain/canonical';
import { GENESIS_TEXT, linkNew } from '../chain/commitment';
import type { EventTable } from './event-table';

/** Where inserts go; the chain or, for the benchmark's comparison only, the plain table. */
export interface EventWriter {
  begin(): void;
  /** The transaction rolled back: what `begin` knew of the head no longer holds. */
  reset(): void;
  mark(): Cursor;
  restore(mark: Cursor): void;
  insert(streamName: string, revision: number, event: SerializedEvent, recordedAt: string): number;
}

interface Cursor {
  next: number;
  /** The hash of the event before `next`, as latin1 text (see linkNew). */
  prev: string;
}

interface HeadRow {
  position: number;
  hash: Buffer | null;
}

/** The chain's statements over one connection. */
export class ChainTable {
  private readonly headStmt: Database.Statement<[], HeadRow>;
  private readonly seqStmt: Database.Statement<[], number>;
  private readonly insertStmt: Database.Statement<
    [number, string, number, string, string, string, string, string, Buffer, Buffer]
  >;
  private readonly dataVersionStmt: Database.Statement<[], number>;

  constructor(db: Database.Database) {
    this.headStmt = db.prepare('SELECT position, hash FROM events ORDER BY position DESC LIMIT 1');
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

export class ChainWriter implements EventWriter {
  private cursor: Cursor = { next: 1, prev: GENESIS_TEXT };
  /** The link being inserted, bound from here (better-sqlite3 copies it). */
  private readonly hashOut = Buffer.alloc(HASH_BYTES);
  /** The data_version the cursor was read or last written under; null: read it again. */
  private knownVersion: number | null = null;

  constructor(private readonly chain: ChainTable) {}

  begin(): void {
    const version = this.chain.dataVersion();
    if (version === this.knownVersion) return;
    this.knownVersion = version;
    const head = this.chain.head();
    // A head without a hash was written around the chain (by hand); chaining on from zero
    // keeps appending, and verify names that event.
    // A stored hash that is not 32 bytes chains on as its first 32, zero-filled.
    const prev = Buffer.alloc(HASH_BYTES);
    (head?.hash ?? GENESIS_HASH).copy(prev, 0, 0, HASH_BYTES);
    this.cursor = {
      next: Math.max(head?.position ?? 0, this.chain.lastIssued()) + 1,
      prev: prev.toString('latin1'),
    };
  }

  reset(): void {
    this.knownVersion = null;
  }

  mark(): Cursor {
    return this.cursor;
  }

  restore(mark: Cursor): void {
    this.cursor = mark;
  }

  insert(streamName: string, revision: number, event: SerializedEvent, recordedAt: string): number {
    const position = this.cursor.next;
    const { salts, hash } = linkNew(
      this.cursor.prev,
      {
        position,
        streamName,
        revision,
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: event.metadata,
        recordedAt,
      },
      this.hashOut,
    );
    this.chain.insert(position, streamName, revision, event, recordedAt, this.hashOut, salts);
    this.cursor = { next: position + 1, prev: hash };
    return position;
  }
}

/** No chain (hash left NULL): only for measuring what the chain costs. */
export class UnchainedWriter implements EventWriter {
  constructor(private readonly table: EventTable) {}
  begin(): void {}
  reset(): void {}
  mark(): Cursor {
    return { next: 0, prev: GENESIS_TEXT };
  }
  restore(): void {}
  insert(streamName: string, revision: number, event: SerializedEvent, recordedAt: string): number {
    return this.table.insert(streamName, revision, event, recordedAt);
  }
}
