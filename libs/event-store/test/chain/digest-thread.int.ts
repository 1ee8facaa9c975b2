/**
 * The digest thread (chain/digest-thread.ts): a real worker thread makes the same commitments
 * the writing thread makes, and a store that takes its digests keeps one chain that verifies
 * whatever the appends do: refusals, repeats, several events, `any`, events too big to hand
 * over, another connection writing, the thread going away.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { eventDigest, linkHash, verifyStore } from '@sessionboxer/event-store/chain';
import { NO_LINK } from '@sessionboxer/event-store/chain/digest-slots';
import { DigestThread, digestThreadUseful } from '@sessionboxer/event-store/chain/digest-thread';
import { ConcurrencyError, type NewEvent } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { caught, newEvent } from '../contract/fixtures';
import { newKey, tempDir } from './chain-kit';

const key = newKey();
let t: ReturnType<typeof tempDir>;
let thread: DigestThread;
beforeAll(async () => {
  thread = DigestThread.acquire();
  await thread.ready;
});
afterAll(() => thread.stop());
beforeEach(() => (t = tempDir()));
afterEach(() => t.remove());

async function madeBy(seq: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  thread.publish();
  while (!thread.made(seq)) {
    if (Date.now() > deadline) throw new Error(`the thread did not make seq ${seq}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('the digest thread', () => {
  it('makes, for any event, the digest the writing thread makes from the same salts, and chains it from the anchor', async () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const event = fc.record({
      position: fc.integer({ min: 1, max: 2 ** 40 }),
      revision: fc.integer({ min: 0, max: 2 ** 31 }),
      streamName: text.filter((s) => s.length > 0),
      type: text.filter((s) => s.length > 0),
      data: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
      metadata: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null'),
    });
    await fc.assert(
      fc.asyncProperty(event, async (e) => {
        const fields = { ...e, id: randomUUID(), recordedAt: new Date().toISOString() };
        const anchor = randomBytes(32);
        const { data, metadata, ...rest } = fields;
        const seq = thread.submit(rest, metadata, data, anchor.toString('latin1'));
        expect(seq).toBeGreaterThanOrEqual(0);
        await madeBy(seq);
        const made = thread.take(seq, NO_LINK, true);
        if (!made?.link) throw new Error('no link from the anchor');
        const digest = eventDigest(fields, Buffer.from(made.salts));
        expect(Buffer.from(made.digest).equals(digest)).toBe(true);
        expect(Buffer.from(made.link).equals(linkHash(anchor, digest))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('chains an event on from the one before only when it takes the next position', async () => {
    const base = { streamName: 's', type: 'T', revision: 0, recordedAt: new Date().toISOString() };
    const at = (position: number, anchor?: string) =>
      thread.submit({ ...base, position, id: randomUUID() }, '{}', '{"a":"b"}', anchor);
    const first = at(10, Buffer.alloc(32, 7).toString('latin1'));
    const second = at(11);
    const gap = at(13);
    await madeBy(gap);
    const a = thread.take(first, NO_LINK, true);
    const aLink = Buffer.from(a?.link ?? []);
    expect(aLink.length).toBe(32);
    // The second follows the first's link: taken as chained only from that head.
    expect(thread.take(second, first | 0, false)?.link).toBeDefined();
    expect(thread.take(gap, second | 0, false)?.link).toBeUndefined();
  });

  it('refuses an event too big for a slot, which its writer then hashes itself', () => {
    const base = { streamName: 's', type: 'T', revision: 0, position: 1, id: randomUUID() };
    const fields = { ...base, recordedAt: new Date().toISOString() };
    expect(
      thread.submit(fields, '{}', JSON.stringify({ big: 'x'.repeat(20_000) }), undefined),
    ).toBe(-1);
  });
});

/** One writer's appends on its own stream, with every kind of append the port allows. */
async function writer(store: SqliteEventStore, w: number, appends: number): Promise<void> {
  const stream = `writer-${w}`;
  let revision = -1;
  let last: NewEvent[] = [];
  for (let i = 0; i < appends; i++) {
    const count = i % 7 === 3 ? 3 : 1;
    const events = Array.from({ length: count }, (_, k) => eventFor(w, i, k));
    if (i % 13 === 5) {
      const wrong = await caught(() =>
        store.appendToStream(stream, events, { expectedRevision: revision + 5 }),
      );
      expect(wrong).toBeInstanceOf(ConcurrencyError);
    }
    if (i % 17 === 9 && last.length > 0) {
      await store.appendToStream(stream, last, { expectedRevision: 'any' }); // a repeat
    }
    const expectedRevision = i % 11 === 4 ? 'any' : revision;
    const result = await store.appendToStream(stream, events, { expectedRevision });
    revision = result.nextExpectedRevision;
    last = events;
  }
}

function eventFor(w: number, i: number, k: number): NewEvent {
  const data: Record<string, unknown> = {
    w,
    i,
    k,
    text: `é ${'∑'.repeat(i % 5)} 🧪 "quoted" \\ ${i}`,
  };
  if (i % 19 === 0) data.big = 'y'.repeat(20_000); // not handed over: hashed where it is
  if (i % 23 === 1) data.many = Array.from({ length: 300 }, (_, n) => `s${n}`); // over a slot's salts
  return {
    id: randomUUID(),
    type: 'Tested',
    data,
    metadata: newEvent(0).metadata,
  };
}

describe('a store that takes its digests from the thread', () => {
  it('keeps one chain that verifies through refusals, repeats, several events, big events and another connection', async () => {
    const store = SqliteEventStore.open({ path: t.file, digestThread: 'on' });
    const other = SqliteEventStore.open({ path: t.file, digestThread: 'off' });
    try {
      let otherDone = false;
      const otherWrites = (async () => {
        for (let i = 0; !otherDone; i++) {
          await other.appendToStream('other', [eventFor(99, i, 0)], { expectedRevision: i - 1 });
          await new Promise((resolve) => setTimeout(resolve, 3));
        }
      })();
      await Promise.all(Array.from({ length: 32 }, (_, w) => writer(store, w, 40)));
      otherDone = true;
      await otherWrites;
      const { digests } = store.stats();
      expect(digests.ahead).toBeGreaterThan(0);
      expect(digests.linked).toBeGreaterThan(0);
      expect(digests.here).toBeGreaterThan(0);
      const summary = await verifyStore(store, key.publicKey);
      expect(summary.problem).toBeNull();
      expect(summary.events).toBe(await store.headPosition());
    } finally {
      await other.close();
      await store.close();
    }
  });

  it('goes on hashing by itself when the thread goes away mid-burst', async () => {
    const own = SqliteEventStore.open({ path: t.file, digestThread: 'on' });
    try {
      const writers = Array.from({ length: 16 }, (_, w) => writer(own, w, 30));
      setTimeout(() => thread.stop(), 20);
      await Promise.all(writers);
      const summary = await verifyStore(own, key.publicKey);
      expect(summary.problem).toBeNull();
      expect(summary.events).toBe(await own.headPosition());
    } finally {
      await own.close();
      thread = DigestThread.acquire(); // for afterAll; a new thread
      await thread.ready;
    }
  });

  it('by default starts it only once appends come in bunches, on a machine with a second core', async () => {
    const store = SqliteEventStore.open({ path: t.file });
    try {
      for (let i = 0; i < 20; i++) {
        await store.appendToStream('lone', [eventFor(0, i, 0)], { expectedRevision: i - 1 });
      }
      expect(store.stats().digests.ahead).toBe(0);
      await Promise.all(Array.from({ length: 16 }, (_, w) => writer(store, w + 1, 20)));
      if (digestThreadUseful()) expect(store.stats().digests.ahead).toBeGreaterThan(0);
      else expect(store.stats().digests.ahead).toBe(0);
      expect((await verifyStore(store, key.publicKey)).problem).toBeNull();
    } finally {
      await store.close();
    }
  });
});
