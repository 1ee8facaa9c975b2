/** Contract: racing writers and subscriptions that keep up with them. */
import {
  ConcurrencyError,
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
} from '@sessionboxer/event-store';
import { ids, newEvent, newEvents, readAllAfter, take, uniqueStream } from './fixtures';

const WRITERS = 32;
const EVENTS_PER_WRITER = 2;

/** Registers the concurrency tests; `store()` is the current test's store. */
export function concurrencyContract(store: () => EventStore): void {
  describe('under concurrency', () => {
    it(`lets exactly one of ${WRITERS} racing writers win each revision of one stream`, async () => {
      const stream = uniqueStream();
      let conflicts = 0;
      const writer = async (w: number): Promise<string[]> => {
        const written: string[] = [];
        let expected: ExpectedRevision = 'no_stream';
        for (let k = 0; k < EVENTS_PER_WRITER; k++) {
          const event = newEvent(w * 100 + k);
          for (;;) {
            try {
              const r = await store().appendToStream(stream, [event], {
                expectedRevision: expected,
              });
              expected = r.nextExpectedRevision;
              break;
            } catch (e) {
              if (!(e instanceof ConcurrencyError)) throw e;
              conflicts++;
              expected = e.actual === -1 ? 'no_stream' : e.actual;
            }
          }
          written.push(event.id);
        }
        return written;
      };
      const written = (
        await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)))
      ).flat();
      const read = await store().readStream(stream);
      const total = WRITERS * EVENTS_PER_WRITER;
      expect(read.map((e) => e.revision)).toEqual(Array.from({ length: total }, (_, i) => i));
      expect(new Set(ids(read))).toEqual(new Set(written));
      expect(conflicts).toBeGreaterThan(0);
    });

    it('never lets a $all or a stream subscription skip or repeat an event while writers race', async () => {
      const head = await store().headPosition();
      const { hot, own, plan, total, hotTotal } = racePlan();
      const ours = (e: RecordedEvent) => e.streamName === hot || own.includes(e.streamName);

      const allSub = store().subscribeToAll({ fromPosition: head });
      const hotSub = store().subscribeToStream(hot);
      const gotAll = take(allSub, total, { keep: ours, timeoutMs: 20_000 });
      const gotHot = take(hotSub, hotTotal, { timeoutMs: 20_000 });
      let lateStarted: Promise<RecordedEvent[]> | undefined;
      let lateSub: ReturnType<EventStore['subscribeToAll']> | undefined;
      const writers = plan.map(async (appends, w) => {
        for (let k = 0; k < appends.length; k++) {
          await store().appendToStream(appends[k].stream, newEvents(appends[k].size, k * 10));
          if (w === 0 && k === 5) {
            // Started while the others keep appending: it must catch up and go live seamlessly.
            lateSub = store().subscribeToAll({ fromPosition: head });
            lateStarted = take(lateSub, total, { keep: ours, timeoutMs: 20_000 });
          }
        }
      });
      try {
        await Promise.all(writers);
        const expectedAll = ids((await readAllAfter(store(), head)).filter(ours));
        expect(expectedAll).toHaveLength(total);
        expect(ids(await gotAll)).toEqual(expectedAll);
        expect(ids(await (lateStarted as Promise<RecordedEvent[]>))).toEqual(expectedAll);
        expect(ids(await gotHot)).toEqual(ids(await store().readStream(hot)));
      } finally {
        await Promise.all([allSub.close(), hotSub.close(), lateSub?.close()]);
      }
    });
  });
}

/**
 * Six writers, twelve appends each of 1-3 events, every other one to a shared hot stream and
 * the rest to the writer's own stream.
 */
function racePlan() {
  const hot = uniqueStream('hot');
  const own = Array.from({ length: 6 }, () => uniqueStream());
  const plan = own.map((mine, w) =>
    Array.from({ length: 12 }, (_, k) => ({
      stream: k % 2 === 0 ? hot : mine,
      size: 1 + ((w + k) % 3),
    })),
  );
  const sum = (appends: { size: number }[]) => appends.reduce((n, a) => n + a.size, 0);
  const total = sum(plan.flat());
  const hotTotal = sum(plan.flat().filter((a) => a.stream === hot));
  return { hot, own, plan, total, hotTotal };
}
