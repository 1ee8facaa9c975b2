/**
 * The event store port, with EventStoreDB's semantics. Every adapter (SQLite, EventStoreDB)
 * passes the same contract suite (libs/event-store/test/event-store.contract.ts).
 *
 * Revisions are 0-based per stream; positions are global, strictly increasing over `$all`.
 * Both are plain numbers (2^53 is far beyond any store this runs on).
 */
import type { Actor } from '@sessionboxer/domain';

/** Metadata carried by every event. `at` is an ISO-8601 timestamp from the command. */
export interface EventMetadata {
  commandId: string;
  correlationId: string;
  causationId: string;
  actor: Actor;
  at: string;
}

export interface NewEvent<T extends string = string, D = unknown> {
  /** A UUID. Re-appending the same ids to the same stream is idempotent. */
  id: string;
  type: T;
  data: D;
  metadata: EventMetadata;
}

export interface RecordedEvent<T extends string = string, D = unknown> extends NewEvent<T, D> {
  streamName: string;
  revision: number;
  position: number;
  /** When the store recorded it (ISO-8601). */
  recordedAt: string;
}

/**
 * `any`, `no_stream`, `stream_exists`, or the exact revision of the stream's last event; -1
 * (what ConcurrencyError reports for a missing stream) means the same as `no_stream`.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface AppendOptions {
  expectedRevision?: ExpectedRevision;
}

export interface AppendResult {
  streamName: string;
  /** Revision of the last event now in the stream. */
  nextExpectedRevision: number;
  /** Global position of the last event of this append. */
  position: number;
}

export type Direction = 'forwards' | 'backwards';

export interface ReadStreamOptions {
  direction?: Direction;
  /** Inclusive. Default: 'start' forwards, 'end' backwards. */
  fromRevision?: number | 'start' | 'end';
  maxCount?: number;
}

export interface ReadAllOptions {
  direction?: Direction;
  /** Inclusive. Default: 'start' forwards, 'end' backwards. */
  fromPosition?: number | 'start' | 'end';
  maxCount?: number;
}

export interface SubscribeToStreamOptions {
  /** Exclusive: events after this revision. Default 'start' (every event). */
  fromRevision?: number | 'start' | 'end';
}

export interface SubscribeToAllOptions {
  /** Exclusive: events after this position. Default 'start' (every event). */
  fromPosition?: number | 'start' | 'end';
}

/** A catch-up subscription: past events first, then live ones, in order, none skipped. */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

export interface EventStore {
  appendToStream(
    streamName: string,
    events: readonly NewEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /** A stream that does not exist reads as no events. */
  readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToStream(streamName: string, options?: SubscribeToStreamOptions): Subscription;
  subscribeToAll(options?: SubscribeToAllOptions): Subscription;
  /** Position of the last event in `$all`, or -1 when empty. */
  headPosition(): Promise<number>;
  close(): Promise<void>;
}

/** The one error every adapter turns its own conflict error into. */
export class ConcurrencyError extends Error {
  readonly code = 'CONCURRENCY' as const;
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    /** The stream's revision when the append was tried; -1 when it did not exist. */
    readonly actual: number,
  ) {
    super(
      `stream ${streamName}: expected revision ${String(expected)}, but it is at ${actual === -1 ? 'no stream' : actual}`,
    );
    this.name = 'ConcurrencyError';
  }
}

/** The same event ids appended again, but not as the same batch at the same place. */
export class IdempotencyError extends Error {
  readonly code = 'IDEMPOTENCY' as const;
  constructor(
    readonly streamName: string,
    message: string,
  ) {
    super(`stream ${streamName}: ${message}`);
    this.name = 'IdempotencyError';
  }
}

/** An argument the store refuses (bad stream name, empty batch, bad revision). */
export class InvalidAppendError extends Error {
  readonly code = 'INVALID_APPEND' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAppendError';
  }
}
