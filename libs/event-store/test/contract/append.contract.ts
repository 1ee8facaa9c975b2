/** Contract: appends, expected revisions, atomicity and refused arguments. */
import {
  ConcurrencyError,
  InvalidAppendError,
  type EventStore,
  type ExpectedRevision,
} from '@sessionboxer/event-store';
import { caught, ids, newEvent, newEvents, readAllAfter, uniqueStream } from './fixtures';

/** Registers the append tests; `store()` is the current test's store. */
export function appendContract(store: () => EventStore): void {
  describe('appendToStream', () => {
    it('records events with revisions from 0, global positions and their content', async () => {
      const stream = uniqueStream();
      const events = newEvents(3);
      const result = await store().appendToStream(stream, events, {
        expectedRevision: 'no_stream',
      });
      const read = await store().readStream(stream);
      expect(ids(read)).toEqual(ids(events));
      expect(read.map((e) => e.revision)).toEqual([0, 1, 2]);
      expect(read.map((e) => e.streamName)).toEqual([stream, stream, stream]);
      expect(read.map((e) => e.data)).toEqual(events.map((e) => e.data));
      expect(read[1].metadata).toEqual(events[1].metadata);
      expect(read[2].type).toBe('Tested');
      expect(read[0].position).toBeLessThan(read[1].position);
      expect(read[1].position).toBeLessThan(read[2].position);
      expect(Number.isNaN(Date.parse(read[0].recordedAt))).toBe(false);
      expect(result).toEqual({
        streamName: stream,
        nextExpectedRevision: 2,
        position: read[2].position,
      });
    });

    it('continues revisions across appends and moves the head', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(2));
      const second = await store().appendToStream(stream, newEvents(1, 2), { expectedRevision: 1 });
      expect(second.nextExpectedRevision).toBe(2);
      expect(await store().headPosition()).toBe(second.position);
    });

    const cases: { expected: ExpectedRevision; existing: number; ok: boolean }[] = [
      { expected: 'any', existing: 0, ok: true },
      { expected: 'any', existing: 2, ok: true },
      { expected: 'no_stream', existing: 0, ok: true },
      { expected: 'no_stream', existing: 1, ok: false },
      { expected: -1, existing: 0, ok: true },
      { expected: -1, existing: 2, ok: false },
      { expected: 'stream_exists', existing: 0, ok: false },
      { expected: 'stream_exists', existing: 1, ok: true },
      { expected: 1, existing: 2, ok: true },
      { expected: 1, existing: 3, ok: false },
      { expected: 0, existing: 0, ok: false },
      { expected: 3, existing: 2, ok: false },
    ];
    it.each(cases)(
      'expected revision $expected on a stream of $existing events: ok=$ok',
      async ({ expected, existing, ok }) => {
        const stream = uniqueStream();
        if (existing > 0) await store().appendToStream(stream, newEvents(existing));
        const attempt = store().appendToStream(stream, [newEvent(99)], {
          expectedRevision: expected,
        });
        if (ok) {
          await expect(attempt).resolves.toMatchObject({ nextExpectedRevision: existing });
        } else {
          const error = await caught(() => attempt);
          expect(error).toBeInstanceOf(ConcurrencyError);
          expect(error).toMatchObject({ streamName: stream, actual: existing - 1 });
        }
        expect(await store().readStream(stream)).toHaveLength(ok ? existing + 1 : existing);
      },
    );

    it('writes all events of a refused multi-event append or none', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(2));
      await expect(
        store().appendToStream(stream, newEvents(5, 10), { expectedRevision: 0 }),
      ).rejects.toBeInstanceOf(ConcurrencyError);
      expect(await store().readStream(stream)).toHaveLength(2);
    });

    it('keeps each multi-event append contiguous in $all while others append at once', async () => {
      const head = await store().headPosition();
      const streams = Array.from({ length: 8 }, () => uniqueStream());
      await Promise.all(streams.map((s) => store().appendToStream(s, newEvents(5))));
      const all = await readAllAfter(store(), head);
      const ours = all.filter((e) => streams.includes(e.streamName));
      expect(ours).toHaveLength(40);
      for (let i = 0; i < ours.length; i += 5) {
        const batch = ours.slice(i, i + 5);
        expect(new Set(batch.map((e) => e.streamName)).size).toBe(1);
        expect(batch.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
      }
    });

    it.each([
      ['an empty batch', (s: string) => [s, []] as const, undefined],
      ['an empty stream name', () => ['', newEvents(1)] as const, undefined],
      ['a system stream name', () => ['$ce-contract', newEvents(1)] as const, undefined],
      ['a fractional revision', (s: string) => [s, newEvents(1)] as const, 1.5],
      ['a negative revision', (s: string) => [s, newEvents(1)] as const, -2],
      ['an unknown revision keyword', (s: string) => [s, newEvents(1)] as const, 'latest'],
      [
        'an event id that is not a UUID',
        (s: string) => [s, [{ ...newEvent(0), id: 'x' }]] as const,
        undefined,
      ],
    ])('refuses %s with InvalidAppendError and writes nothing', async (_, args, expected) => {
      const stream = uniqueStream();
      const [name, events] = args(stream);
      const error = await caught(() =>
        store().appendToStream(name, events, {
          expectedRevision: expected as ExpectedRevision | undefined,
        }),
      );
      expect(error).toBeInstanceOf(InvalidAppendError);
      expect(await store().readStream(stream)).toEqual([]);
    });
  });
}
