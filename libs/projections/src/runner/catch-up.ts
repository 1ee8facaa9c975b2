import type { EventStore, RecordedEvent, Subscription } from '@sessionboxer/event-store';

/** A catch-up subscription to `$all` after a checkpoint (-1: from the first event). */
export function subscribeAfter(eventStore: EventStore, checkpoint: number): Subscription {
  return eventStore.subscribeToAll({ fromPosition: checkpoint < 0 ? 'start' : checkpoint });
}

export interface CatchUpOptions {
  /** Most events handed over at once. */
  batchSize: number;
  /** Checked after each event: false ends the catch-up after the batch in hand. */
  running(): boolean;
  /** Takes each batch (in `$all` order); the next is gathered only after it settles. */
  onBatch(batch: readonly RecordedEvent[]): void | Promise<void>;
}

/** The next item of the subscription, or NOT_READY when none is there without waiting. */
const NOT_READY = Symbol('not ready');

/**
 * Follows a subscription in batches of what is available: events that arrive without waiting
 * (a catch-up after a restart) are grouped up to `batchSize`; when the subscription would wait
 * for the next event, what was gathered is handed over at once, so a live follower lags by one
 * batch only. Shared by the projection runner and the reactor runner, so both read the log the
 * same way. Ends when the subscription ends or `running()` turns false; throws what it throws.
 */
export async function catchUp(
  events: AsyncIterator<RecordedEvent>,
  options: CatchUpOptions,
): Promise<void> {
  let batch: RecordedEvent[] = [];
  // One turn of the event loop per batch, not per event: events that come without waiting
  // (a catch-up reads whole pages synchronously) all beat it; one that is not there by then
  // would wait. A setImmediate per event was a tenth of a catch-up's time.
  let turn: Promise<typeof NOT_READY> | null = null;
  const handOver = async (): Promise<void> => {
    await options.onBatch(batch);
    batch = [];
    turn = null;
  };
  let next = quiet(events.next());
  for (;;) {
    const item =
      batch.length === 0 ? await next : await Promise.race([next, (turn ??= nextTurn())]);
    if (item === NOT_READY) {
      // Nothing more without waiting: hand over what we have, then wait for the next event.
      await handOver();
      continue;
    }
    if (item.done === true) break;
    batch.push(item.value);
    if (batch.length >= options.batchSize) await handOver();
    if (!options.running()) break;
    next = quiet(events.next());
  }
  if (batch.length > 0) await options.onBatch(batch);
}

/** Marks a promise handled, so one abandoned at a stop is no unhandled rejection. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** Resolves on the event loop's next turn. */
function nextTurn(): Promise<typeof NOT_READY> {
  return new Promise((resolve) => setImmediate(() => resolve(NOT_READY)));
}
