/**
 * The hash chain against an attacker with the SQLite file: an untouched store verifies; one
 * flipped byte, one deleted event, two swapped events, and a history rewritten with re-signed
 * checkpoints are each named at the first event they touched.
 */
import { keyIdOf, signCheckpoint } from '@sessionboxer/event-store/chain';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { newEvent } from '../contract/fixtures';
import {
  asAttacker,
  checkpoint,
  newKey,
  rewriteChain,
  row,
  seed,
  tempDir,
  verifyFile,
} from './chain-kit';

const key = newKey();
let t: ReturnType<typeof tempDir>;

beforeEach(async () => {
  t = tempDir();
  const store = SqliteEventStore.open({ path: t.file });
  // 30 events and a checkpoint after every 10th: positions 1–10, 11 (checkpoint), 12–21, …
  await seed(store, key, 30);
  await store.close();
});
afterEach(() => t.remove());

describe('verify over a real store file', () => {
  it('finds an untouched store intact, every checkpoint signed', async () => {
    const r = await verifyFile(t.file, key);
    expect(r.problem).toBeNull();
    expect(r).toMatchObject({ events: 33, checkpoints: 3, head: { position: 33 }, signedUpTo: 32 });
  });

  it('names the event one flipped byte of data changed', async () => {
    const target = asAttacker(t.file, (db) => {
      const r = row(db, 17);
      const flipped = r.data.replace('event', 'evenu');
      db.prepare('UPDATE events SET data = ? WHERE position = 17').run(flipped);
      return r;
    });
    const r = await verifyFile(t.file, key);
    expect(r.problem).toMatchObject({
      kind: 'hash mismatch',
      position: 17,
      streamName: target.stream_name,
      type: 'Noted',
    });
    expect(r.events).toBe(16);
  });

  it('names an event whose metadata bytes were changed to ones that read back alike', async () => {
    const store = SqliteEventStore.open({ path: t.file });
    const e = newEvent(34, 'Noted');
    await store.appendToStream('session-9', [
      { ...e, metadata: { ...e.metadata, actor: { kind: 'system', id: 'a\uFFFDb' } } },
    ]);
    await store.close();
    // U+FFFD's three bytes become one byte that is not UTF-8: decoded, it is U+FFFD again.
    asAttacker(t.file, (db) => {
      const bytes = db
        .prepare('SELECT CAST(metadata AS BLOB) AS m FROM events WHERE position = 34')
        .get() as { m: Buffer };
      const at = bytes.m.indexOf(Buffer.from('\uFFFD'));
      const changed = Buffer.concat([
        bytes.m.subarray(0, at),
        Buffer.from([0xff]),
        bytes.m.subarray(at + 3),
      ]);
      db.prepare('UPDATE events SET metadata = CAST(? AS TEXT) WHERE position = 34').run(changed);
    });
    const r = await verifyFile(t.file, key);
    expect(r.problem).toMatchObject({ kind: 'hash mismatch', position: 34 });
  });

  it('names the gap a deleted event leaves', async () => {
    asAttacker(t.file, (db) => db.prepare('DELETE FROM events WHERE position = 5').run());
    const r = await verifyFile(t.file, key);
    expect(r.problem).toMatchObject({ kind: 'gap in positions', position: 6 });
    expect(r.problem?.detail).toContain('position 5 is missing');
  });

  it('names the first of two events whose data was swapped', async () => {
    asAttacker(t.file, (db) => {
      const [a, b] = [row(db, 4), row(db, 9)];
      db.prepare('UPDATE events SET data = ? WHERE position = 4').run(b.data);
      db.prepare('UPDATE events SET data = ? WHERE position = 9').run(a.data);
    });
    const r = await verifyFile(t.file, key);
    expect(r.problem).toMatchObject({ kind: 'hash mismatch', position: 4 });
  });

  it('refuses a history rewritten from one event on and re-signed with another key', async () => {
    const forger = newKey();
    asAttacker(t.file, (db) =>
      rewriteChain(db, forger, () => {
        const r = row(db, 3);
        db.prepare('UPDATE events SET data = ? WHERE position = 3').run(
          r.data.replace('event', 'forged'),
        );
      }),
    );
    // Every hash is right again: only the signature tells.
    const r = await verifyFile(t.file, key);
    expect(r.problem).toMatchObject({
      kind: 'bad signature',
      position: 11,
      streamName: 'audit-checkpoints',
    });
    expect(r.problem?.detail).toContain(`signed by key ${keyIdOf(forger.publicKey)}`);
    // With the forger's key the same history is whole: the key is what proves it.
    expect((await verifyFile(t.file, forger)).problem).toBeNull();
  });

  it('refuses a re-signed checkpoint that claims the real key id', async () => {
    const forger = newKey();
    asAttacker(t.file, (db) =>
      rewriteChain(
        db,
        forger,
        () => db.prepare('UPDATE events SET type = ? WHERE position = 3').run('Erased'),
        keyIdOf(key.publicKey),
      ),
    );
    const r = await verifyFile(t.file, key);
    expect(r.problem).toMatchObject({ kind: 'bad signature', position: 11 });
    expect(r.problem?.detail).toBe('the signature does not match the public key');
  });

  it('refuses a checkpoint that signs a hash the chain does not have', async () => {
    const store = SqliteEventStore.open({ path: t.file });
    const head = await store.chainHead();
    const data = signCheckpoint(key.privateKey, key.publicKey, head!.position, Buffer.alloc(32, 7));
    await store.appendToStream('audit-checkpoints', [
      {
        id: '00000000-0000-4000-8000-000000000001',
        type: 'ChainCheckpointed',
        data,
        metadata: {
          commandId: 'c',
          correlationId: 'c',
          causationId: 'c',
          actor: { kind: 'system', id: 't' },
          at: 'now',
        },
      },
    ]);
    await checkpoint(store, key);
    await store.close();
    const r = await verifyFile(t.file, key);
    expect(r.problem).toMatchObject({ kind: 'checkpoint mismatch', position: 34 });
  });
});
