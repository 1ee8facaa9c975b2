import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import {
  auditKeyPath,
  CHECKPOINT_STREAM,
  CHECKPOINT_TYPE,
  loadOrCreateAuditKey,
  publicKeyPath,
  signCheckpoint,
} from '@sessionboxer/event-store/chain';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import {
  allProjections,
  compareReadModels,
  rebuildReadModels,
  SqliteReadModelStore,
} from '@sessionboxer/projections';
import { cli, rows, SessionWriter, tornStreams } from './store-kit';

/** The proof of issue 20's backup: a copy taken while ~1,000 appends/s land restores whole. */
describe('backup during writes, then restore', () => {
  let dir: string;
  let live: string;
  let store: SqliteEventStore;
  let writer: SessionWriter;
  let backup: string;
  let backupHead: number;
  let headBefore: number;
  let pub: string;
  let pin: Database.Database;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-backup-'));
    live = path.join(dir, 'live');
    fs.mkdirSync(live);
    const key = loadOrCreateAuditKey(auditKeyPath(live));
    pub = publicKeyPath(auditKeyPath(live));
    store = SqliteEventStore.open({ path: path.join(live, 'events.sqlite') });
    writer = new SessionWriter(store);
    for (let i = 0; i < 4_000; i += 200) {
      await Promise.all(Array.from({ length: 200 }, () => writer.append()));
    }
    // A signed checkpoint, as the control plane's checkpointer writes them.
    const head = await store.chainHead();
    const signed = signCheckpoint(key.privateKey, key.publicKey, head!.position, head!.hash!);
    await store.appendToStream(CHECKPOINT_STREAM, [
      {
        id: randomUUID(),
        type: CHECKPOINT_TYPE,
        data: { ...signed },
        metadata: {
          commandId: 'cp',
          correlationId: 'cp',
          causationId: 'cp',
          actor: { kind: 'system', id: 'chain-checkpointer' },
          at: new Date().toISOString(),
        },
      },
    ]);
    // A reader holding an old snapshot (a long `replay`, say) keeps the WAL from being
    // checkpointed past it: what is written from now on is in the WAL only, so a copy of the
    // database file alone would miss it.
    pin = new Database(path.join(live, 'events.sqlite'), { readonly: true });
    pin.exec('BEGIN');
    pin.prepare('SELECT max(position) FROM events').get();
    writer.start(1_000);
    await writer.more(100);
    headBefore = await store.headPosition();
    backup = path.join(dir, 'backup.sqlite');
    const res = await cli(['backup', backup, '--data', live]);
    expect(res.stderr).toContain(`data folder: ${live} (from --data)`);
    expect(res.stderr).toMatch(/backup \[#+\] 100% .* pages/);
    expect(res.code).toBe(0);
    backupHead = Number(/up to position (\d+)/.exec(res.stdout)?.[1]);
    await writer.more(100);
    await writer.stop();
    pin.exec('COMMIT');
    pin.close();
  }, 120_000);

  afterAll(async () => {
    await writer?.stop();
    await store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is a consistent prefix of the live store, taken while it was written', async () => {
    const liveHead = await store.headPosition();
    expect(backupHead).toBeGreaterThan(headBefore);
    expect(liveHead).toBeGreaterThan(backupHead);
    const copied = rows(backup);
    expect(copied.length).toBe(backupHead);
    expect(copied).toEqual(rows(path.join(live, 'events.sqlite'), backupHead));
    expect(tornStreams(copied)).toEqual([]);
  });

  it('restores into a folder with an older store, moved aside, and the read models equal the live ones at the backup head', async () => {
    const target = path.join(dir, 'target');
    fs.mkdirSync(target);
    const old = SqliteEventStore.open({ path: path.join(target, 'events.sqlite') });
    await new SessionWriter(old).append();
    await old.close();
    const res = await cli(['restore', backup, '--data', target, '--yes', '--public-key', pub]);
    expect(res.stderr).toMatch(/verifying \[#+\] 100%/);
    expect(res.stderr).toMatch(/rebuilding \[#+\] 100%/);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`restored ${backupHead} events`);
    expect(res.stdout).toMatch(/signed up to \d+/);
    const aside = /the replaced store is in (.+)/.exec(res.stdout)?.[1] ?? '';
    expect(rows(path.join(aside, 'events.sqlite'))).toHaveLength(3);
    expect(rows(path.join(target, 'events.sqlite'))).toEqual(rows(backup));
    expect(fs.readdirSync(target).filter((f) => f.includes('.restoring'))).toEqual([]);

    const rebuiltLive = path.join(dir, 'live-at-backup.sqlite');
    await rebuildReadModels({
      eventStore: store,
      path: rebuiltLive,
      projections: allProjections,
      toPosition: backupHead,
    });
    const a = SqliteReadModelStore.open({ path: rebuiltLive });
    const b = SqliteReadModelStore.open({ path: path.join(target, 'read-models.sqlite') });
    try {
      const comparison = compareReadModels(a, b);
      expect(comparison.projections.filter((p) => !p.equal)).toEqual([]);
      const sidebar = b.checkpoints().find((c) => c.projection === 'sidebar_tree');
      expect(sidebar?.position).toBe(backupHead);
    } finally {
      a.close();
      b.close();
    }
    const replay = await cli(['replay', '--data', target]);
    expect(replay.code).toBe(0);
  }, 120_000);

  it('refuses to overwrite a file without --force, and overwrites it with', async () => {
    const existing = path.join(dir, 'existing.sqlite');
    fs.writeFileSync(existing, 'keep me');
    const refused = await cli(['backup', existing, '--data', live]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`${existing} exists: pass --force to overwrite it`);
    expect(fs.readFileSync(existing, 'utf8')).toBe('keep me');
    const forced = await cli(['backup', existing, '--data', live, '--force']);
    expect(forced.code).toBe(0);
    expect(rows(existing)).toHaveLength(await store.headPosition());
  }, 60_000);
});
