/** Contract: catch-up subscriptions to a stream and to `$all`, and how they end. */
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';
import { ids, newEvents, take, uniqueStream, withTimeout } from './fixtures';

/** Registers the subscription tests; `store()` is the current test's store. */
export function subscriptionContract(store: () => EventStore): void {
  describe('subscribeToStream', () => {
    it('delivers the history, then live events, in order', async () => {
      const stream = uniqueStream();
      const history = newEvents(3);
      await store().appendToStream(stream, history);
      const sub = store().subscribeToStream(stream);
      try {
        expect(ids(await take(sub, 3))).toEqual(ids(history));
        const live = newEvents(2, 3);
        const next = take(sub, 2);
        await store().appendToStream(stream, live, { expectedRevision: 2 });
        const got = await next;
        expect(ids(got)).toEqual(ids(live));
        expect(got.map((e) => e.revision)).toEqual([3, 4]);
      } finally {
        await sub.close();
      }
    });

    it('starts after the given revision', async () => {
      const stream = uniqueStream();
      const events = newEvents(4);
      await store().appendToStream(stream, events);
      const sub = store().subscribeToStream(stream, { fromRevision: 1 });
      try {
        expect(ids(await take(sub, 2))).toEqual(ids(events.slice(2)));
      } finally {
        await sub.close();
      }
    });

    it("from 'end' sees only events appended after it started", async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(3));
      const sub = store().subscribeToStream(stream, { fromRevision: 'end' });
      try {
        const first = await appendUntilSeen(store(), sub, stream);
        expect(first.revision).toBeGreaterThanOrEqual(3);
        expect((first.data as { n: number }).n).toBeGreaterThanOrEqual(100);
      } finally {
        await sub.close();
      }
    });
  });

  describe('subscribeToAll', () => {
    it('starts after the given position and follows every stream', async () => {
      const a = uniqueStream();
      const b = uniqueStream();
      const events = newEvents(3);
      await store().appendToStream(a, events);
      const [first] = await store().readStream(a);
      const sub = store().subscribeToAll({ fromPosition: first.position });
      try {
        const ours = (e: RecordedEvent) => e.streamName === a || e.streamName === b;
        const got = take(sub, 4, { keep: ours });
        const live = newEvents(2, 3);
        await store().appendToStream(b, live);
        expect(ids(await got)).toEqual([...ids(events.slice(1)), ...ids(live)]);
      } finally {
        await sub.close();
      }
    });

    it("from 'end' sees only events appended after it started", async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(3));
      const head = await store().headPosition();
      const sub = store().subscribeToAll({ fromPosition: 'end' });
      try {
        const first = await appendUntilSeen(store(), sub, stream);
        expect(first.position).toBeGreaterThan(head);
        expect(first.revision).toBeGreaterThanOrEqual(3);
      } finally {
        await sub.close();
      }
    });
  });

  describe('ending a subscription', () => {
    it('close() ends an iteration that is waiting for new events', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(1));
      const sub = store().subscribeToStream(stream);
      const got: RecordedEvent[] = [];
      const loop = (async () => {
        for await (const e of sub) got.push(e);
      })();
      await waitFor(() => got.length === 1);
      await sub.close();
      expect(await withTimeout(loop, 3000)).not.toBe('timeout');
      await store().appendToStream(stream, newEvents(1, 1));
      expect(got).toHaveLength(1);
    });

    it('leaving a for-await loop ends the subscription', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(3));
      const sub = store().subscribeToStream(stream);
      for await (const e of sub) {
        if (e.revision === 1) break;
      }
      const after = await withTimeout(sub[Symbol.asyncIterator]().next(), 3000);
      expect(after).toEqual({ value: undefined, done: true });
    });
  });
}

/**
 * Appends one event at a time until the subscription yields one of them, so a subscription
 * that becomes live only a little after it was asked for (a remote server) is still tested
 * strictly: the first event it yields must be new, whichever attempt it came from.
 */
async function appendUntilSeen(
  store: EventStore,
  sub: AsyncIterable<RecordedEvent>,
  stream: string,
): Promise<RecordedEvent> {
  const iterator = sub[Symbol.asyncIterator]();
  const next = iterator.next();
  for (let attempt = 0; attempt < 20; attempt++) {
    await store.appendToStream(stream, [{ ...newEvents(1, 100 + attempt)[0] }]);
    const got = await withTimeout(next, 250);
    if (got !== 'timeout') {
      if (got.done) throw new Error('subscription ended');
      return got.value;
    }
  }
  throw new Error("the 'end' subscription never delivered an event");
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
