/**
 * What the group committer, the append it applies and the writers share: an append waiting for
 * its transaction, the writer of its events (the chain, or for the benchmark the plain table),
 * and the chain's head as the writer keeps it.
 */
import type { SerializedEvent } from '../append-validation';
import type { ExpectedRevision } from '../event-store.port';

/** A validated append waiting for its turn in a write transaction. */
export interface AppendRequest {
  streamName: string;
  expected: ExpectedRevision;
  events: SerializedEvent[];
  /** Set when its events were handed to the digest thread (chain-writer.ts). */
  ahead?: Ahead;
}

/** What an append's events were hashed ahead as: the first one's guesses, and each one's seq. */
export interface Ahead {
  position: number;
  revision: number;
  recordedAt: string;
  /** The digest thread's seq of each event, -1 once taken or when not handed over. */
  seqs: number[];
}

/** The head of the chain as the writer keeps it (chain-writer.ts). */
export interface Cursor {
  next: number;
  /** The hash of the event before `next`, as latin1 text (see linkNew). */
  prev: string;
  /** The thread's seq (int32) whose link `prev` is, NO_LINK (chain/digest-slots.ts) if none. */
  linkSeq: number;
  /** When the event before `next` was recorded ('' when none is known). */
  recordedAt: string;
}

/** Where inserts go; the chain or, for the benchmark's comparison only, the plain table. */
export interface EventWriter {
  begin(): void;
  /** The transaction rolled back: what `begin` knew of the head no longer holds. */
  reset(): void;
  mark(): Cursor;
  restore(mark: Cursor): void;
  /**
   * When an append whose batch began gathering at `gathered` is recorded, inside the write
   * lock: `gathered`, unless an event already written (by another process that held the lock
   * meanwhile) was recorded later; then now. So recorded times never go back along positions.
   */
  recordedAt(gathered: string): string;
  /** `request` was queued, to be recorded at `recordedAt`: its hashing may begin. */
  queued(request: AppendRequest, recordedAt: string): void;
  /** Inserts the request's `index`-th event at `revision`; returns its position. */
  insert(request: AppendRequest, index: number, revision: number, recordedAt: string): number;
  /** A batch's transaction has ended (committed or not); `stillQueued` events wait after it. */
  batchEnded(batch: readonly AppendRequest[], stillQueued: number): void;
  close(): void;
}
