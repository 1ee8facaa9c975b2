/** Contract: reading a stream and `$all`, forwards and backwards, from anywhere. */
import type { EventStore } from '@sessionboxer/event-store';
import { ids, newEvents, uniqueStream } from './fixtures';

/** Registers the read tests; `store()` is the current test's store. */
export function readContract(store: () => EventStore): void {
  describe('readStream', () => {
    it('reads a stream that does not exist as no events, both ways', async () => {
      const stream = uniqueStream();
      expect(await store().readStream(stream)).toEqual([]);
      expect(await store().readStream(stream, { direction: 'backwards' })).toEqual([]);
    });

    it('reads backwards from the end, limited by maxCount', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(5));
      const all = await store().readStream(stream, { direction: 'backwards' });
      expect(all.map((e) => e.revision)).toEqual([4, 3, 2, 1, 0]);
      const last2 = await store().readStream(stream, { direction: 'backwards', maxCount: 2 });
      expect(last2.map((e) => e.revision)).toEqual([4, 3]);
    });

    it('reads from the middle, the start revision included, both ways', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(6));
      const fwd = await store().readStream(stream, { fromRevision: 2, maxCount: 3 });
      expect(fwd.map((e) => e.revision)).toEqual([2, 3, 4]);
      const bwd = await store().readStream(stream, { direction: 'backwards', fromRevision: 2 });
      expect(bwd.map((e) => e.revision)).toEqual([2, 1, 0]);
      const past = await store().readStream(stream, { fromRevision: 6 });
      expect(past).toEqual([]);
    });

    it("reads forwards from 'start' and backwards from 'end'", async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(3));
      const fwd = await store().readStream(stream, { fromRevision: 'start', maxCount: 1 });
      expect(fwd.map((e) => e.revision)).toEqual([0]);
      const bwd = await store().readStream(stream, {
        direction: 'backwards',
        fromRevision: 'end',
        maxCount: 1,
      });
      expect(bwd.map((e) => e.revision)).toEqual([2]);
    });
  });

  describe('readAll', () => {
    it('reads every stream in one global order, the start position included', async () => {
      const a = uniqueStream();
      const b = uniqueStream();
      const first = await store().appendToStream(a, newEvents(2));
      await store().appendToStream(b, newEvents(2));
      await store().appendToStream(a, newEvents(1, 2));
      const start = (await store().readStream(a))[0].position;
      const all = await store().readAll({ fromPosition: start, maxCount: 5 });
      expect(all.map((e) => [e.streamName, e.revision])).toEqual([
        [a, 0],
        [a, 1],
        [b, 0],
        [b, 1],
        [a, 2],
      ]);
      expect(all[1].position).toBe(first.position);
      for (let i = 1; i < all.length; i++)
        expect(all[i].position).toBeGreaterThan(all[i - 1].position);
    });

    it('reads backwards from the end and from a position, that position included', async () => {
      const stream = uniqueStream();
      const events = newEvents(4);
      await store().appendToStream(stream, events);
      const last3 = await store().readAll({ direction: 'backwards', maxCount: 3 });
      expect(ids(last3)).toEqual(ids(events).slice(1).reverse());
      const third = (await store().readStream(stream))[2];
      const fromThird = await store().readAll({
        direction: 'backwards',
        fromPosition: third.position,
        maxCount: 2,
      });
      expect(ids(fromThird)).toEqual([events[2].id, events[1].id]);
    });

    it('reads forwards from a position in the middle of a multi-event append', async () => {
      const stream = uniqueStream();
      const events = newEvents(4);
      await store().appendToStream(stream, events);
      const second = (await store().readStream(stream))[1];
      const rest = await store().readAll({ fromPosition: second.position, maxCount: 3 });
      expect(ids(rest)).toEqual(ids(events).slice(1));
    });

    it('reports the position of the last event as the head', async () => {
      const result = await store().appendToStream(uniqueStream(), newEvents(2));
      expect(await store().headPosition()).toBe(result.position);
      const [last] = await store().readAll({ direction: 'backwards', maxCount: 1 });
      expect(last.position).toBe(result.position);
    });
  });
}
