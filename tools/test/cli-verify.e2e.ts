/**
 * `verify` and `export` against the data folder a real control plane left: its history
 * verifies with the checkpoint it signed at shutdown, an exported bundle verifies offline
 * with only the public key, and a byte changed in the SQLite file is named (exit 1).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { startApp } from '../../apps/control-plane/test/harness';

const root = path.resolve(__dirname, '../..');

function cli(
  args: string[],
  keyFile: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', '@swc-node/register', path.join(root, 'tools/cli/main.ts'), ...args],
      { cwd: root, env: { ...process.env, EVENTSTORE_URL: '', SESSIONBOXER_AUDIT_KEY: keyFile } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('verify and export, from the command line', () => {
  let dataDir: string;
  let keyFile: string;

  beforeAll(async () => {
    const api = await startApp();
    dataDir = api.dataDir;
    keyFile = path.join(dataDir, 'audit-key');
    for (let i = 0; i < 3; i++)
      await api.request('POST', '/api/sessions', { title: `Audited ${i}` });
    await api.close();
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('finds the history intact, signed at shutdown, and exports a bundle that verifies offline', async () => {
    const res = await cli(['verify', '--data', dataDir, '--json'], keyFile);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout) as {
      ok: boolean;
      events: number;
      checkpoints: number;
      signedUpTo: number;
      head: { position: number };
    };
    expect(report).toMatchObject({
      ok: true,
      checkpoints: 1,
      signedUpTo: report.head.position - 1,
    });

    const bundle = path.join(dataDir, 'bundle.jsonl');
    expect((await cli(['export', '--data', dataDir, '--out', bundle], keyFile)).code).toBe(0);
    const offline = await cli(
      ['verify', '--bundle', bundle, '--public-key', `${keyFile}.pub`],
      'nowhere',
    );
    expect(offline.stdout).toMatch(/^intact: .*bundle\.jsonl: \d+ events, 1 checkpoints/);
    expect(offline.code).toBe(0);

    const lines = fs.readFileSync(bundle, 'utf8').split('\n');
    lines[1] = lines[1].replace('Audited', 'Audiled');
    fs.writeFileSync(bundle, lines.join('\n'));
    const edited = await cli(
      ['verify', '--bundle', bundle, '--public-key', `${keyFile}.pub`],
      'nowhere',
    );
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain('the first bad event is at position 2');
  });

  it('names the event a changed byte in the SQLite file altered, and exits 1', async () => {
    const db = new Database(path.join(dataDir, 'events.sqlite'));
    db.exec('DROP TRIGGER events_append_only_update');
    const row = db
      .prepare('SELECT data, stream_name, type FROM events WHERE position = 2')
      .get() as { data: string; stream_name: string; type: string };
    db.prepare('UPDATE events SET data = ? WHERE position = 2').run(
      row.data.replace('Audited', 'Audiled'),
    );
    db.close();
    const res = await cli(['verify', '--data', dataDir], keyFile);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      `TAMPERED: ${dataDir}: the first bad event is at position 2 (stream ${row.stream_name}, type ${row.type}): hash mismatch`,
    );
  });
});
