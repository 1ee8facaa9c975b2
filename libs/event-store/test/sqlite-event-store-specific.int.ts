/**
 * What only the SQLite adapter promises beyond the contract: group commit, durability across
 * reopen and close, stricter idempotency, and subscriptions that see another process's appends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConcurrencyError, IdempotencyError } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { caught, ids, newEvent, newEvents, take, uniqueStream } from './contract/fixtures';
import { exited, spawnTs } from './child/spawn-ts';

let dir: string;
let file: string;
let store: SqliteEventStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-es-sqlite-'));
  file = join(dir, 'events.sqlite');
  store = SqliteEventStore.open({ path: file });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('group commit', () => {
  it('commits appends made in the same turn of the event loop in one transaction', async () => {
    const before = store.stats();
    await Promise.all(
      Array.from({ length: 40 }, () => store.appendToStream(uniqueStream(), newEvents(2))),
    );
    const after = store.stats();
    expect(after.commits - before.commits).toBe(1);
    expect(after.appends - before.appends).toBe(40);
    expect(after.events - before.events).toBe(80);
  });

  it('checks each append of a batch against the earlier ones, and a conflict fails only its own', async () => {
    const s = uniqueStream();
    const other = uniqueStream();
    const before = store.stats().commits;
    const results = await Promise.allSettled([
      store.appendToStream(s, newEvents(2), { expectedRevision: 'no_stream' }),
      store.appendToStream(s, newEvents(1, 2), { expectedRevision: 1 }),
      store.appendToStream(s, newEvents(3, 3), { expectedRevision: 0 }),
      store.appendToStream(other, newEvents(1), { expectedRevision: 'no_stream' }),
    ]);
    expect(store.stats().commits - before).toBe(1);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const refused = (results[2] as PromiseRejectedResult).reason as unknown;
    expect(refused).toBeInstanceOf(ConcurrencyError);
    expect(refused).toMatchObject({ actual: 2 });
    expect((await store.readStream(s)).map((e) => e.revision)).toEqual([0, 1, 2]);
    expect(await store.readStream(other)).toHaveLength(1);
  });

  it('commits a lone writer at once, one transaction per append', async () => {
    const s = uniqueStream();
    const before = store.stats().commits;
    for (let i = 0; i < 5; i++) await store.appendToStream(s, [newEvent(i)]);
    expect(store.stats().commits - before).toBe(5);
  });

  it('treats two copies of one batch in the same transaction as one append', async () => {
    const s = uniqueStream();
    const batch = newEvents(2);
    const [a, b] = await Promise.all([
      store.appendToStream(s, batch, { expectedRevision: 'no_stream' }),
      store.appendToStream(s, batch, { expectedRevision: 'no_stream' }),
    ]);
    expect(b).toEqual(a);
    expect(await store.readStream(s)).toHaveLength(2);
  });
});

describe('recorded times', () => {
  it('never go back along positions when another connection committed while a batch gathered', async () => {
    const slow = SqliteEventStore.open({ path: file, groupCommitMaxWaitMs: 40 });
    try {
      const before = new Date().toISOString();
      const waiting = slow.appendToStream('slow', newEvents(1));
      await new Promise((resolve) => setTimeout(resolve, 10));
      // Gathered later, committed first: the waiting batch must not be recorded before it.
      await store.appendToStream('quick', newEvents(1));
      await waiting;
      const [quick, late] = await store.readAll();
      expect([quick.streamName, late.streamName]).toEqual(['quick', 'slow']);
      expect(quick.recordedAt > before).toBe(true);
      expect(late.recordedAt >= quick.recordedAt).toBe(true);
    } finally {
      await slow.close();
    }
  });
});

describe('durability and lifecycle', () => {
  it('reads -1 as the head of an empty store', async () => {
    expect(await store.headPosition()).toBe(-1);
    expect(await store.readAll()).toEqual([]);
  });

  it('close() commits appends still queued, and a reopened file has them', async () => {
    const s = uniqueStream();
    const pending = store.appendToStream(s, newEvents(3));
    await store.close();
    await expect(pending).resolves.toMatchObject({ nextExpectedRevision: 2 });
    await expect(store.appendToStream(s, newEvents(1))).rejects.toThrow(/closed/);
    store = SqliteEventStore.open({ path: file });
    expect(await store.readStream(s)).toHaveLength(3);
  });

  it('keeps positions increasing across reopen', async () => {
    const first = await store.appendToStream(uniqueStream(), newEvents(2));
    await store.close();
    store = SqliteEventStore.open({ path: file, synchronous: 'NORMAL' });
    const second = await store.appendToStream(uniqueStream(), newEvents(1));
    expect(second.position).toBeGreaterThan(first.position);
  });

  it('refuses a batch whose later ids are already in the stream (stricter than EventStoreDB)', async () => {
    const s = uniqueStream();
    const batch = newEvents(2);
    await store.appendToStream(s, batch);
    const error = await caught(() => store.appendToStream(s, [newEvent(5), batch[1]]));
    expect(error).toBeInstanceOf(IdempotencyError);
    expect(await store.readStream(s)).toHaveLength(2);
  });

  it('ends open subscriptions when the store closes', async () => {
    const sub = store.subscribeToAll();
    const next = sub[Symbol.asyncIterator]().next();
    await store.close();
    await expect(next).resolves.toEqual({ value: undefined, done: true });
  });
});

describe('another process on the same file', () => {
  it('delivers its appends to live subscriptions here, in order, without gaps', async () => {
    const s = uniqueStream('elsewhere');
    await store.appendToStream(s, newEvents(2));
    const streamSub = store.subscribeToStream(s, { fromRevision: 'end' });
    const allSub = store.subscribeToAll({ fromPosition: 'end' });
    const child = spawnTs(join(__dirname, 'child/append-events.ts'), [file, s, '30']);
    try {
      const [fromStream, fromAll] = await Promise.all([take(streamSub, 30), take(allSub, 30)]);
      expect(await exited(child)).toBe(0);
      const written = (await store.readStream(s)).slice(2);
      expect(ids(fromStream)).toEqual(ids(written));
      expect(ids(fromAll)).toEqual(ids(written));
      expect(fromStream.map((e) => (e.data as { pid: number }).pid)).toContain(child.pid);
    } finally {
      child.kill('SIGKILL');
      await Promise.all([streamSub.close(), allSub.close(), exited(child)]);
    }
  });
});
