/**
 * Argument checks every adapter runs before it touches its store, so a bad append is refused
 * the same way (an InvalidAppendError) whatever sits behind the port.
 */
import {
  InvalidAppendError,
  type AppendOptions,
  type ExpectedRevision,
  type NewEvent,
} from './event-store.port';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An event with its data and metadata already serialised, ready for a store that keeps text. */
export interface SerializedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/** True for EventStoreDB's system streams and events (`$all`, `$ce-…`, `$metadata`, `$>`…). */
export function isSystemName(name: string): boolean {
  return name.startsWith('$');
}

/** Throws InvalidAppendError unless `name` is a stream a caller may write to. */
export function assertWritableStreamName(name: string): void {
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidAppendError('stream name must be a non-empty string');
  }
  if (isSystemName(name)) {
    throw new InvalidAppendError(`stream ${name}: names starting with '$' are system streams`);
  }
}

/**
 * The expected revision as the store should check it. `-1` is accepted as `no_stream` because
 * it is what a fold over an empty stream yields and what ConcurrencyError reports as `actual`.
 */
export function normalizeExpectedRevision(
  expected: ExpectedRevision | undefined,
): ExpectedRevision {
  if (expected === undefined) return 'any';
  if (expected === 'any' || expected === 'no_stream' || expected === 'stream_exists') {
    return expected;
  }
  if (typeof expected !== 'number' || !Number.isSafeInteger(expected) || expected < -1) {
    throw new InvalidAppendError(
      `expected revision must be 'any', 'no_stream', 'stream_exists' or an integer >= 0, got ${JSON.stringify(expected)}`,
    );
  }
  return expected === -1 ? 'no_stream' : expected;
}

/**
 * Checks one append's arguments and serialises its events. Throws InvalidAppendError on an
 * empty batch, an id that is not a UUID, an id repeated inside the batch, or data that is not
 * JSON.
 */
export function validateAppend(
  streamName: string,
  events: readonly NewEvent[],
  options: AppendOptions | undefined,
): { expected: ExpectedRevision; events: SerializedEvent[] } {
  assertWritableStreamName(streamName);
  const expected = normalizeExpectedRevision(options?.expectedRevision);
  const batch: readonly NewEvent[] = events;
  if (!Array.isArray(events) || batch.length === 0) {
    throw new InvalidAppendError(`stream ${streamName}: an append needs at least one event`);
  }
  const seen = new Set<string>();
  const serialized = batch.map((event) => {
    const s = serializeEvent(streamName, event);
    const key = s.id.toLowerCase();
    if (seen.has(key)) {
      throw new InvalidAppendError(
        `stream ${streamName}: event id ${s.id} appears twice in one append`,
      );
    }
    seen.add(key);
    return s;
  });
  return { expected, events: serialized };
}

function serializeEvent(streamName: string, event: NewEvent): SerializedEvent {
  if (typeof event?.id !== 'string' || !UUID.test(event.id)) {
    throw new InvalidAppendError(
      `stream ${streamName}: event id must be a UUID, got ${JSON.stringify(event?.id)}`,
    );
  }
  if (typeof event.type !== 'string' || event.type.length === 0 || isSystemName(event.type)) {
    throw new InvalidAppendError(
      `stream ${streamName}: event type must be a non-empty string not starting with '$'`,
    );
  }
  return {
    id: event.id.toLowerCase(),
    type: event.type,
    data: toJson(streamName, 'data', event.data),
    metadata: toJson(streamName, 'metadata', event.metadata),
  };
}

function toJson(streamName: string, what: string, value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    throw new InvalidAppendError(`stream ${streamName}: event ${what} is not JSON (${String(e)})`);
  }
  if (text === undefined) {
    throw new InvalidAppendError(`stream ${streamName}: event ${what} is missing`);
  }
  return text;
}
