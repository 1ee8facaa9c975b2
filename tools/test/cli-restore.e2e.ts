import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { startApp, type RunningApp } from '../../apps/control-plane/test/harness';
import { cli, SessionWriter } from './store-kit';

/**
 * What each entry of a folder is, by stat alone: a test that opened a store file to hash it
 * would drop the in-process control plane's SQLite locks (closing any descriptor of a file
 * drops a process's POSIX locks on it), which is what the running-refusal test relies on.
 */
/**
 * What restore may change. The shared state (sign-ins, leases: shared-state.sqlite) is the
 * running control plane's own, renewed every few seconds, and never restore's business.
 */
function digest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    if (name.startsWith('shared-state.sqlite')) continue;
    const s = fs.statSync(path.join(dir, name));
    out[name] = s.isFile() ? `${s.ino} ${s.size} ${s.mtimeMs}` : 'folder';
  }
  return out;
}

/** restore's refusals: each leaves the data folder exactly as it was. */
describe('restore refuses', () => {
  let dir: string;
  let api: RunningApp;
  let backup: string;
  let pub: string;
  let running = false;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-restore-'));
    api = await startApp();
    running = true;
    for (let i = 0; i < 3; i++) await api.request('POST', '/api/sessions', { title: `S${i}` });
    pub = path.join(api.dataDir, 'audit-key.pub');
    backup = path.join(dir, 'backup.sqlite');
    const res = await cli(['backup', backup, '--data', api.dataDir]);
    expect(res.code).toBe(0);
  }, 120_000);

  afterAll(async () => {
    if (running) await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function refused(args: string[], why: string | RegExp): Promise<void> {
    const before = digest(api.dataDir);
    const res = await cli(['restore', ...args, '--data', api.dataDir]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(why);
    expect(digest(api.dataDir)).toEqual(before);
  }

  it('while a control plane runs on the folder, naming the store it has open', async () => {
    await refused(
      [backup, '--yes', '--public-key', pub],
      `${path.join(api.dataDir, 'events.sqlite')} is open in another process (a running control plane`,
    );
  }, 60_000);

  describe('with the control plane stopped', () => {
    beforeAll(async () => {
      await api.close();
      running = false;
    });

    it('a file that is not SQLite', async () => {
      const junk = path.join(dir, 'junk.sqlite');
      fs.writeFileSync(junk, 'this is not a database, just text long enough to have a header');
      await refused(
        [junk, '--yes', '--public-key', pub],
        'is not an event store: not a SQLite file',
      );
    });

    it('a SQLite file that is not an event store (the read models)', async () => {
      const models = path.join(dir, 'models.sqlite');
      fs.copyFileSync(path.join(api.dataDir, 'read-models.sqlite'), models);
      await refused(
        [models, '--yes', '--public-key', pub],
        /is not an event store this code knows: no events table with position, stream_name/,
      );
    });

    it('a backup whose chain was altered, naming the event', async () => {
      const altered = path.join(dir, 'altered.sqlite');
      fs.copyFileSync(backup, altered);
      const db = new Database(altered);
      db.exec('DROP TRIGGER events_append_only_update');
      db.prepare(
        "UPDATE events SET data = json_set(data, '$.title', 'Forged') WHERE position = 2",
      ).run();
      db.close();
      await refused(
        [altered, '--yes', '--public-key', pub],
        /the backup's hash chain does not verify at position 2 \(stream session-.*\): hash mismatch.*nothing changed/,
      );
      expect(fs.readdirSync(api.dataDir).filter((f) => f.includes('.restoring'))).toEqual([]);
    });

    it('a backup signed by another installation', async () => {
      const other = path.join(dir, 'other');
      fs.mkdirSync(other);
      const store = SqliteEventStore.open({ path: path.join(other, 'events.sqlite') });
      await new SessionWriter(store).append();
      await store.close();
      const otherApi = await startApp(other);
      await otherApi.close(); // at shutdown it signs its head with its own key
      const signedElsewhere = path.join(dir, 'elsewhere.sqlite');
      expect((await cli(['backup', signedElsewhere, '--data', other])).code).toBe(0);
      await refused([signedElsewhere, '--yes', '--public-key', pub], /bad signature/);
    }, 60_000);

    it('without --yes when there is no terminal to ask on', async () => {
      await refused([backup, '--public-key', pub], /no terminal to ask on: pass --yes to confirm/);
    });

    it('without a public key to check the signed checkpoints', async () => {
      await refused([backup, '--yes'], /no public key at .*: pass --public-key/);
    });

    it('and then restores, once nothing refuses', async () => {
      const res = await cli([
        'restore',
        backup,
        '--yes',
        '--public-key',
        pub,
        '--data',
        api.dataDir,
      ]);
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('restored 3 events');
    });
  });
});
