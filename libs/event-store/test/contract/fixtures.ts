/** Helpers shared by the contract sections: stores per test, events, stream names, collectors. */
import { randomUUID } from 'node:crypto';
import type { EventStore, NewEvent, RecordedEvent, Subscription } from '@sessionboxer/event-store';

/** What an adapter's test file hands the contract: a fresh store and how to dispose of it. */
export type StoreFactory = () => Promise<{ store: EventStore; cleanup(): Promise<void> }>;

/** Gives each test a fresh store from `factory` and disposes of it afterwards. */
export function useStore(factory: StoreFactory): () => EventStore {
  let current: { store: EventStore; cleanup(): Promise<void> } | undefined;
  beforeEach(async () => {
    current = await factory();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('no store: useStore() only works inside a test');
    return current.store;
  };
}

/** A stream name no other test (or earlier run against a shared server) uses. */
export function uniqueStream(category = 'contract'): string {
  return `${category}-${randomUUID()}`;
}

/** A new event with a fresh id; `n` ends up in its data so tests can tell events apart. */
export function newEvent(
  n: number,
  type = 'Tested',
  extra: Record<string, unknown> = {},
): NewEvent {
  const id = randomUUID();
  return {
    id,
    type,
    data: { n, ...extra },
    metadata: {
      commandId: id,
      correlationId: id,
      causationId: id,
      actor: { kind: 'system', id: 'contract-test' },
      at: '2026-01-01T00:00:00.000Z',
    },
  };
}

/** `count` new events numbered from `from`. */
export function newEvents(count: number, from = 0): NewEvent[] {
  return Array.from({ length: count }, (_, i) => newEvent(from + i));
}

/**
 * Takes exactly `count` events from a subscription (optionally only those `keep` accepts),
 * failing if they do not arrive within `timeoutMs`. Leaves the subscription open.
 */
export async function take(
  subscription: Subscription,
  count: number,
  options: { timeoutMs?: number; keep?: (e: RecordedEvent) => boolean } = {},
): Promise<RecordedEvent[]> {
  const got: RecordedEvent[] = [];
  const iterator = subscription[Symbol.asyncIterator]();
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  while (got.length < count) {
    const next = await withTimeout(iterator.next(), deadline - Date.now());
    if (next === 'timeout') {
      throw new Error(`subscription gave ${got.length} of ${count} events before the timeout`);
    }
    if (next.done) throw new Error(`subscription ended after ${got.length} of ${count} events`);
    if (!options.keep || options.keep(next.value)) got.push(next.value);
  }
  return got;
}

/** Resolves to the promise's value, or 'timeout' after `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Ids of events, for comparing sequences. */
export function ids(events: readonly { id: string }[]): string[] {
  return events.map((e) => e.id);
}

/** Awaits `fn` and returns what it threw (fails the test if it did not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection, but the call succeeded');
}

/**
 * Every event after position `head` (exclusive). Reads from `head` itself and drops it, since a
 * position is only meaningful where an event is (EventStoreDB's log positions are not dense).
 */
export async function readAllAfter(store: EventStore, head: number): Promise<RecordedEvent[]> {
  const all = await store.readAll({ fromPosition: head < 0 ? 'start' : head });
  return all.filter((e) => e.position > head);
}
