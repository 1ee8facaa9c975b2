/** Contract: re-appending the same event ids (EventStoreDB's idempotent writes). */
import {
  IdempotencyError,
  type EventStore,
  type ExpectedRevision,
} from '@sessionboxer/event-store';
import { caught, newEvent, newEvents, uniqueStream } from './fixtures';

/** Registers the idempotency tests; `store()` is the current test's store. */
export function idempotencyContract(store: () => EventStore): void {
  describe('idempotent re-append', () => {
    const retries: [string, ExpectedRevision, ExpectedRevision][] = [
      ['no_stream, retried with no_stream', 'no_stream', 'no_stream'],
      ['no_stream, retried with any', 'no_stream', 'any'],
      ['any, retried with any', 'any', 'any'],
    ];
    it.each(retries)(
      'a new stream appended with %s returns the first result and writes nothing',
      async (_, first, retry) => {
        const stream = uniqueStream();
        const batch = newEvents(3);
        const original = await store().appendToStream(stream, batch, { expectedRevision: first });
        const head = await store().headPosition();
        const again = await store().appendToStream(stream, batch, { expectedRevision: retry });
        expect(again).toEqual(original);
        expect(await store().readStream(stream)).toHaveLength(3);
        expect(await store().headPosition()).toBe(head);
      },
    );

    it('a batch appended at an exact revision and retried with it returns the first result', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(2));
      const batch = newEvents(2, 2);
      const original = await store().appendToStream(stream, batch, { expectedRevision: 1 });
      const again = await store().appendToStream(stream, batch, { expectedRevision: 1 });
      expect(again).toEqual(original);
      expect(original.nextExpectedRevision).toBe(3);
      expect(await store().readStream(stream)).toHaveLength(4);
    });

    it('an earlier batch retried after the stream moved on still returns its own result', async () => {
      const stream = uniqueStream();
      const batch = newEvents(2);
      const original = await store().appendToStream(stream, batch);
      await store().appendToStream(stream, newEvents(3, 2));
      const again = await store().appendToStream(stream, batch, { expectedRevision: 'any' });
      expect(again).toEqual(original);
      expect(await store().readStream(stream)).toHaveLength(5);
    });

    it('refuses a batch that repeats some of an earlier batch with new events after them', async () => {
      const stream = uniqueStream();
      const batch = newEvents(2);
      await store().appendToStream(stream, batch);
      const overlapping = [batch[0], newEvent(7)];
      const error = await caught(() =>
        store().appendToStream(stream, overlapping, { expectedRevision: 'any' }),
      );
      expect(error).toBeInstanceOf(IdempotencyError);
      expect(error).toMatchObject({ streamName: stream });
      expect(await store().readStream(stream)).toHaveLength(2);
    });

    it('lets the same event ids be used in another stream', async () => {
      const batch = newEvents(2);
      const a = uniqueStream();
      const b = uniqueStream();
      await store().appendToStream(a, batch);
      const inB = await store().appendToStream(b, batch);
      expect(inB.nextExpectedRevision).toBe(1);
      expect(await store().readStream(b)).toHaveLength(2);
    });
  });
}
