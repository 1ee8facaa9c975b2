/**
 * One append inside an open write transaction: idempotency, then the expected revision, then
 * the inserts. It reads through the same connection that wrote earlier appends of the batch,
 * so it sees them, which is what makes group commit check each append against its neighbours.
 */
import {
  ConcurrencyError,
  IdempotencyError,
  type AppendResult,
  type ExpectedRevision,
} from '../event-store.port';
import type { AppendRequest, EventWriter } from './event-writer';
import type { EventTable } from './event-table';

/** The outcome of one append; `written` is false when it was an idempotent repeat. */
export interface AppliedAppend {
  result: AppendResult;
  written: boolean;
}

/**
 * Applies `request` through `writer` (the chain) or throws ConcurrencyError / IdempotencyError having written nothing.
 * Must run inside a transaction.
 */
export function applyAppend(
  table: EventTable,
  writer: EventWriter,
  request: AppendRequest,
  recordedAt: string,
): AppliedAppend {
  const { streamName, events } = request;
  const repeat = findRepeat(table, request);
  if (repeat) return { result: repeat, written: false };
  const actual = table.streamRevision(streamName);
  if (!revisionMatches(request.expected, actual)) {
    throw new ConcurrencyError(streamName, request.expected, actual);
  }
  let position = -1;
  for (let i = 0; i < events.length; i++) {
    position = writer.insert(request, i, actual + 1 + i, recordedAt);
  }
  return {
    result: { streamName, nextExpectedRevision: actual + events.length, position },
    written: true,
  };
}

/** Whether a stream at revision `actual` (-1: none) satisfies `expected`. */
export function revisionMatches(expected: ExpectedRevision, actual: number): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === -1;
    case 'stream_exists':
      return actual >= 0;
    default:
      return expected === actual;
  }
}

/**
 * EventStoreDB's idempotency: the same ids already in the stream as the same consecutive
 * events mean this append already happened, so its original result is returned. Some of the
 * ids present, or present in another order, is a different write reusing ids: refused.
 */
function findRepeat(table: EventTable, request: AppendRequest): AppendResult | undefined {
  const { streamName, events } = request;
  const found = events.map((e) => table.findEventId(streamName, e.id));
  const present = found.filter((row) => row !== undefined);
  if (present.length === 0) return undefined;
  const first = found[0];
  const consecutive =
    present.length === events.length &&
    first !== undefined &&
    found.every((row, i) => row?.revision === first.revision + i);
  if (!consecutive) {
    throw new IdempotencyError(
      streamName,
      `${present.length} of the ${events.length} event ids of this append are already in the stream, but not as this same append`,
    );
  }
  const last = found[found.length - 1] as NonNullable<(typeof found)[number]>;
  return { streamName, nextExpectedRevision: last.revision, position: last.position };
}
