/**
 * Pure translations between the port's types and @eventstore/db-client's: revisions (number ↔
 * bigint and the client's constants), positions (our number is the commit position), recorded
 * events, and the client's errors into the port's errors. Kept apart from the adapter so they
 * are unit-tested without a server.
 */
import {
  ANY,
  END,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type CurrentRevision,
  type EventData,
  type Position,
  type ReadPosition,
  type ReadRevision,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { isSystemName } from '../append-validation';
import {
  ConcurrencyError,
  type EventMetadata,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
} from '../event-store.port';

/** The client's expected-revision value for ours. */
export function toAppendExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected === -1 ? NO_STREAM : BigInt(expected);
  }
}

/** A stream's current revision as the client reports it, -1 for no stream. */
export function fromCurrentRevision(current: CurrentRevision): number {
  return current === NO_STREAM ? -1 : Number(current);
}

/** Our number revision, or 'start'/'end', as the client's read revision. */
export function toReadRevision(from: number | 'start' | 'end'): ReadRevision {
  if (from === 'start') return START;
  if (from === 'end') return END;
  return BigInt(from);
}

/** Our number position (a commit position) as the client's {commit, prepare} pair. */
export function toPosition(position: number): Position {
  const p = BigInt(position);
  // Since 20.x an event not written in an explicit transaction has prepare == commit.
  return { commit: p, prepare: p };
}

/** Our read start as the client's read position. */
export function toReadPosition(from: number | 'start' | 'end'): ReadPosition {
  if (from === 'start') return START;
  if (from === 'end') return END;
  return toPosition(from);
}

/**
 * A subscription's exclusive start: 'start' and -1 both mean "every event", which the client
 * spells START (a revision or position -1 does not exist for it).
 */
export function toSubscriptionStart(from: number | 'start' | 'end'): number | 'start' | 'end' {
  return from === -1 ? 'start' : from;
}

/** Our event as the client's JSON event; metadata travels as the event's JSON metadata. */
export function toEventData(event: NewEvent): EventData {
  return jsonEvent({
    id: event.id,
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: event.metadata as unknown as Record<string, unknown>,
  });
}

/** Unsigned 64-bit "no position" that older servers send for events read from a stream. */
const NO_POSITION = 2n ** 64n - 1n;

/**
 * A recorded event for the port, or undefined for what the port does not show: an empty
 * resolution, system events (`$…` types or streams), and binary events (never written by us).
 * The position is -1 when the server did not send one (servers before 22.6, reading a stream).
 */
export function fromResolvedEvent(
  resolved: ResolvedEvent | AllStreamResolvedEvent,
): RecordedEvent | undefined {
  const e = resolved.event;
  if (!e || !e.isJson || isSystemName(e.type) || isSystemName(e.streamId)) return undefined;
  const commit = e.position?.commit;
  return {
    id: e.id,
    type: e.type,
    data: e.data,
    metadata: withoutChainLink(e.metadata) as EventMetadata,
    streamName: e.streamId,
    revision: Number(e.revision),
    position: commit === undefined || commit === NO_POSITION ? -1 : Number(commit),
    recordedAt: e.created.toISOString(),
  };
}

/** The port's metadata: what the caller gave, without the hash chain's `$chain` link. */
function withoutChainLink(metadata: unknown): unknown {
  if (typeof metadata !== 'object' || metadata === null || !('$chain' in metadata)) return metadata;
  const { $chain: _link, ...rest } = metadata as Record<string, unknown>;
  return rest;
}

/** The commit position of a resolved event of any kind (system ones too), for paging. */
export function rawPosition(resolved: AllStreamResolvedEvent): number | undefined {
  const commit = resolved.event?.position.commit ?? resolved.commitPosition;
  return commit === undefined ? undefined : Number(commit);
}

/** True when reading failed only because the stream does not exist (reads as no events). */
export function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError;
}

/**
 * The port's error for a failed append: WrongExpectedVersionError becomes ConcurrencyError
 * with the stream's actual revision; anything else is passed on unchanged.
 */
export function mapAppendError(
  error: unknown,
  streamName: string,
  expected: ExpectedRevision,
): unknown {
  if (error instanceof WrongExpectedVersionError) {
    return new ConcurrencyError(streamName, expected, fromCurrentRevision(error.actualVersion));
  }
  return error;
}

/** What a refused append turns out to be, once the stream's tail has been looked at. */
export type Refusal =
  | { kind: 'repeat'; nextExpectedRevision: number; position: number }
  | { kind: 'reused-ids'; count: number }
  | { kind: 'conflict' };

/**
 * Classifies an append EventStoreDB refused with a wrong expected version, given the stream's
 * tail: the same batch already there as consecutive events is a repeat (the port returns its
 * original result whatever the expected revision, as the SQLite adapter does); some of its ids
 * there is an idempotency violation; none, a plain concurrency conflict.
 */
export function classifyRefusal(
  batch: readonly { id: string }[],
  tail: readonly RecordedEvent[],
): Refusal {
  const stored = new Map(tail.map((e) => [e.id.toLowerCase(), e]));
  const found = batch.map((e) => stored.get(e.id.toLowerCase()));
  const count = found.filter((e) => e !== undefined).length;
  if (count === 0) return { kind: 'conflict' };
  const first = found[0];
  const repeat =
    count === batch.length &&
    first !== undefined &&
    found.every((e, i) => e?.revision === first.revision + i);
  if (!repeat) return { kind: 'reused-ids', count };
  const last = found[found.length - 1] as RecordedEvent;
  return { kind: 'repeat', nextExpectedRevision: last.revision, position: last.position };
}
