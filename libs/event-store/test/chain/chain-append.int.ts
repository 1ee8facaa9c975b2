/**
 * The chain as the SQLite adapter writes it: a version-1 file gets its events chained when it
 * is opened, concurrent appends through the group committer keep one valid chain, and a
 * bundle of the history verifies offline with only the public key.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  BundleVerifier,
  exportBundle,
  verifyStore,
  type BundleReport,
} from '@sessionboxer/event-store/chain';
import { ConcurrencyError } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { caught, newEvent, newEvents } from '../contract/fixtures';
import { checkpoint, newKey, seed, tempDir } from './chain-kit';

const key = newKey();
let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.remove());

/** A file as the version-1 code left it: same table, no hash column, user_version 1. */
function writeV1File(file: string, count: number): void {
  const db = new Database(file);
  db.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, stream_name TEXT NOT NULL,
    revision INTEGER NOT NULL, event_id TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
    metadata TEXT NOT NULL, recorded_at TEXT NOT NULL);
    CREATE UNIQUE INDEX events_stream_revision ON events (stream_name, revision);
    CREATE UNIQUE INDEX events_stream_event_id ON events (stream_name, event_id);
    CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
      BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
      BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    PRAGMA user_version = 1;`);
  const insert = db.prepare(
    'INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const e = newEvent(i);
      insert.run(
        `old-${i % 7}`,
        Math.floor(i / 7),
        e.id,
        e.type,
        JSON.stringify(e.data),
        JSON.stringify(e.metadata),
        '2026-01-01T00:00:00.000Z',
      );
    }
  })();
  db.close();
}

describe('the migration from a version-1 file', () => {
  it('chains every event already there, once, with progress, and keeps the file append-only', async () => {
    writeV1File(t.file, 25_000);
    const progress: [number, number][] = [];
    const store = SqliteEventStore.open({
      path: t.file,
      onMigration: (d, n) => progress.push([d, n]),
    });
    expect(progress).toEqual([
      [10_000, 25_000],
      [20_000, 25_000],
      [25_000, 25_000],
    ]);
    await store.appendToStream('after-migration', newEvents(2));
    await checkpoint(store, key);
    const r = await verifyStore(store, key.publicKey);
    await store.close();
    expect(r.problem).toBeNull();
    expect(r).toMatchObject({ events: 25_003, checkpoints: 1 });

    const db = new Database(t.file);
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    expect(db.prepare('SELECT count(*) FROM events WHERE hash IS NULL').pluck().get()).toBe(0);
    // The events already there keep schema 2's links (no salts); those after are schema 3's.
    const salted = db.prepare('SELECT count(*) FROM events WHERE salts IS NOT NULL').pluck();
    expect(salted.get()).toBe(3);
    expect(() => db.prepare("UPDATE events SET type = 'x' WHERE position = 1").run()).toThrow(
      /append-only/,
    );
    db.close();
    // Opened again: nothing is chained twice.
    const again = SqliteEventStore.open({
      path: t.file,
      onMigration: () => progress.push([-1, -1]),
    });
    await again.close();
    expect(progress).toHaveLength(3);
  });
});

describe('appends through the group committer', () => {
  it('keep one chain in position order across concurrent writers, refusals and multi-event appends', async () => {
    const store = SqliteEventStore.open({ path: t.file });
    const before = store.stats();
    const writes: Promise<unknown>[] = [];
    for (let w = 0; w < 64; w++) {
      writes.push(
        (async () => {
          for (let i = 0; i < 5; i++) {
            await store.appendToStream(`writer-${w}`, newEvents(1 + (i % 3)), {
              expectedRevision: 'any',
            });
          }
        })(),
      );
    }
    // A refusal in the middle of a batch undoes only itself; the chain goes on from before it.
    writes.push(
      caught(() => store.appendToStream('writer-0', newEvents(2), { expectedRevision: 999 })),
    );
    const results = await Promise.all(writes);
    expect(results[64]).toBeInstanceOf(ConcurrencyError);
    const after = store.stats();
    expect(after.commits - before.commits).toBeLessThan(after.appends - before.appends);
    await checkpoint(store, key);
    const r = await verifyStore(store, key.publicKey);
    await store.close();
    expect(r.problem).toBeNull();
    expect(r.events).toBe(64 * (1 + 2 + 3 + 1 + 2) + 1);
    // The writer hands each insert its salts from scratch, not a copy: every row must still
    // keep its own, fresh ones.
    const db = new Database(t.file, { readonly: true });
    const salts = db.prepare<[], { salts: Buffer }>('SELECT salts FROM events').all();
    db.close();
    expect(new Set(salts.map((row) => row.salts.toString('hex'))).size).toBe(r.events);
  });

  it('chains on from before an append its savepoint undid after it had written', async () => {
    // A failure after the first insert (as a full disk would be): the trigger stands in for it.
    const db = new Database(t.file);
    const store = SqliteEventStore.open({ path: t.file });
    db.exec(`CREATE TRIGGER poison BEFORE INSERT ON events WHEN NEW.type = 'Poison'
      BEGIN SELECT RAISE(ABORT, 'poisoned'); END;`);
    db.close();
    const poisoned = [newEvent(1), newEvent(2, 'Poison')];
    const results = await Promise.all([
      store.appendToStream('a', newEvents(2)),
      caught(() => store.appendToStream('b', poisoned)),
      store.appendToStream('c', newEvents(2)),
    ]);
    expect((results[1] as Error).message).toMatch(/poisoned/);
    const r = await verifyStore(store, key.publicKey);
    await store.close();
    expect(r).toMatchObject({ problem: null, events: 4 });
  });
});

describe('the head kept in memory between transactions', () => {
  it('is read again when another connection wrote, so two stores on one file keep one chain', async () => {
    const one = SqliteEventStore.open({ path: t.file });
    const two = SqliteEventStore.open({ path: t.file });
    for (let i = 0; i < 5; i++) {
      await one.appendToStream('from-one', [newEvent(i)]);
      await two.appendToStream('from-two', [newEvent(i)]);
      await one.appendToStream('from-one', newEvents(2));
    }
    await checkpoint(one, key);
    const r = await verifyStore(two, key.publicKey);
    await Promise.all([one.close(), two.close()]);
    expect(r.problem).toBeNull();
    expect(r).toMatchObject({ events: 21, checkpoints: 1 });
  });
});

describe('a bundle of the history', () => {
  async function exported(file: string): Promise<string[]> {
    const store = SqliteEventStore.open({ path: t.file });
    await seed(store, key, 20);
    const lines: string[] = [];
    await exportBundle(store, key, null, (l) => {
      lines.push(l);
      return Promise.resolve();
    });
    await store.close();
    writeFileSync(file, lines.join(''));
    return lines.join('').trimEnd().split('\n');
  }

  function verifyLines(lines: string[], publicKey = key.publicKey): BundleReport {
    const v = new BundleVerifier(publicKey);
    for (const line of lines) if (!v.add(line)) break;
    return v.result();
  }

  it('verifies offline with the public key, and fails on any change or another key', async () => {
    const lines = await exported(join(t.dir, 'bundle.jsonl'));
    expect(lines).toHaveLength(23);
    expect(verifyLines(lines)).toMatchObject({
      problem: null,
      bundleProblem: null,
      events: 22,
      signedUpTo: 22,
    });
    expect(readFileSync(join(t.dir, 'bundle.jsonl'), 'utf8')).toContain('"hash":"');

    const edited = [...lines];
    edited[6] = edited[6].replace('event 7', 'event 8');
    expect(verifyLines(edited).problem).toMatchObject({ kind: 'hash mismatch', position: 7 });

    const swapped = [...lines];
    [swapped[3], swapped[4]] = [swapped[4], swapped[3]];
    expect(verifyLines(swapped).problem).toMatchObject({ kind: 'gap in positions', position: 5 });

    const repeated = [...lines.slice(0, 5), lines[3], ...lines.slice(5)];
    expect(verifyLines(repeated).problem).toMatchObject({ kind: 'out of order', position: 4 });

    const dropped = lines.filter((_, i) => i !== 8);
    expect(verifyLines(dropped).problem).toMatchObject({ kind: 'gap in positions', position: 10 });

    const cut = [...lines.slice(0, 20), lines[22]];
    expect(verifyLines(cut).bundleProblem).toMatch(/manifest says 22 events, the bundle holds 20/);

    expect(verifyLines(lines, newKey().publicKey).problem).toMatchObject({
      kind: 'bad signature',
      position: 11,
    });
  });
});
