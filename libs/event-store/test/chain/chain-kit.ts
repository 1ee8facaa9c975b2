/**
 * Shared by the chain tests: real store files, a real key, and an attacker who opens the
 * SQLite file directly and drops the append-only triggers first.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  CHECKPOINT_STREAM,
  CHECKPOINT_TYPE,
  chainHash,
  GENESIS_HASH,
  signCheckpoint,
  verifyStore,
  type AuditKey,
  type ChainFields,
  type ChainSummary,
} from '@sessionboxer/event-store/chain';
import { SqliteEventStore, verifyFile as verifyParallel } from '@sessionboxer/event-store/sqlite';
import { newEvent } from '../contract/fixtures';

export function tempDir(): { dir: string; file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'sb-chain-'));
  return {
    dir,
    file: join(dir, 'events.sqlite'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function newKey(): AuditKey {
  return generateKeyPairSync('ed25519');
}

/** Appends a checkpoint signing the current head, as the control plane's checkpointer does. */
export async function checkpoint(store: SqliteEventStore, key: AuditKey): Promise<void> {
  const head = await store.chainHead();
  if (!head?.hash) throw new Error('nothing to sign');
  const e = newEvent(0, CHECKPOINT_TYPE);
  const data = signCheckpoint(key.privateKey, key.publicKey, head.position, head.hash);
  await store.appendToStream(CHECKPOINT_STREAM, [{ ...e, data }]);
}

/** `count` events over three streams (one append each), a checkpoint every `every`. */
export async function seed(
  store: SqliteEventStore,
  key: AuditKey,
  count: number,
  every = 10,
): Promise<void> {
  for (let i = 1; i <= count; i++) {
    await store.appendToStream(`session-${i % 3}`, [newEvent(i, 'Noted', { text: `event ${i}` })]);
    if (i % every === 0) await checkpoint(store, key);
  }
}

/**
 * Verifies the file three ways, one walk through the port, in parallel ranges of 7 events
 * (this thread and workers with their own connections), and in ranges of 5 on workers only,
 * and expects the same answer from all.
 */
export async function verifyFile(file: string, key: AuditKey): Promise<ChainSummary> {
  const store = SqliteEventStore.open({ path: file });
  let walked: ChainSummary;
  try {
    walked = await verifyStore(store, key.publicKey);
  } finally {
    await store.close();
  }
  const ranges = await verifyParallel(file, key.publicKey, { workers: 5, minPerWorker: 7 });
  expect(ranges).toEqual(walked);
  const onWorkers = await verifyParallel(file, key.publicKey, {
    workers: 2,
    minPerWorker: 5,
    useThisThread: false,
  });
  expect(onWorkers).toEqual(walked);
  return walked;
}

/** Opens the file as an attacker would: directly, with the append-only triggers gone. */
export function asAttacker<T>(file: string, act: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    db.exec(
      'DROP TRIGGER IF EXISTS events_append_only_update; DROP TRIGGER IF EXISTS events_append_only_delete;',
    );
    return act(db);
  } finally {
    db.close();
  }
}

export function row(
  db: Database.Database,
  position: number,
): { data: string; stream_name: string; type: string } {
  return db
    .prepare('SELECT data, stream_name, type FROM events WHERE position = ?')
    .get(position) as {
    data: string;
    stream_name: string;
    type: string;
  };
}

/**
 * The attacker's best move: change what they like, recompute every hash after it, and re-sign
 * every checkpoint with a key of their own.
 */
export function rewriteChain(
  db: Database.Database,
  forger: AuditKey,
  change: () => void,
  claimKeyId?: string,
): void {
  change();
  const rows = db
    .prepare(
      `SELECT position, stream_name AS streamName, revision, event_id AS id, type, data, metadata,
         recorded_at AS recordedAt, salts FROM events ORDER BY position`,
    )
    .all() as (ChainFields & { data: string })[];
  const update = db.prepare('UPDATE events SET hash = ?, data = ? WHERE position = ?');
  const hashes = new Map<number, Buffer>();
  let prev = GENESIS_HASH;
  for (const r of rows) {
    let data = r.data;
    if (r.streamName === CHECKPOINT_STREAM) {
      const old = JSON.parse(r.data) as { position: number };
      const signed = signCheckpoint(
        forger.privateKey,
        forger.publicKey,
        old.position,
        hashes.get(old.position) as Buffer,
      );
      data = JSON.stringify(claimKeyId ? { ...signed, keyId: claimKeyId } : signed);
    }
    prev = chainHash(prev, { ...r, data });
    hashes.set(r.position, prev);
    update.run(prev, data, r.position);
  }
}
