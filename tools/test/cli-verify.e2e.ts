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

const TOKEN = 'ghp_' + 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8';

describe('verify and export, from the command line', () => {
  let dataDir: string;
  let keyFile: string;
  let secretive: string;

  beforeAll(async () => {
    const api = await startApp();
    dataDir = api.dataDir;
    keyFile = path.join(dataDir, 'audit-key');
    for (let i = 0; i < 3; i++)
      await api.request('POST', '/api/sessions', { title: `Audited ${i}` });
    secretive = (await api.request('POST', '/api/sessions', { title: 'Secretive' })).body.id;
    await api.request('PATCH', `/api/sessions/${secretive}`, { title: `push with ${TOKEN}` });
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

  it("exports one session redacted: no token in it, and it verifies offline as that session's", async () => {
    const bundle = path.join(dataDir, 'session.jsonl');
    const args = ['export', '--data', dataDir, '--session', secretive, '--out', bundle];
    const plain = await cli(args, keyFile);
    expect(plain.code).toBe(0);
    expect(fs.readFileSync(bundle, 'utf8')).toContain(TOKEN);
    const exported = await cli([...args, '--redact'], keyFile);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(
      /events written to .*session\.jsonl \(\d+ others by digest, 1 values hidden\)/,
    );
    expect(fs.readFileSync(bundle, 'utf8')).not.toContain(TOKEN);
    const offline = await cli(
      ['verify', '--bundle', bundle, '--public-key', `${keyFile}.pub`],
      'nowhere',
    );
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain(`bundle of session ${secretive}, redacted (1 values hidden)`);
    expect(offline.stdout).toContain("the manifest is signed with the installation's key");
    const family = await cli(['export', '--data', dataDir, '--family', '--out', bundle], keyFile);
    expect(family.code).toBe(2);
  });

  it('replays a policy over the history: session renames are allowed, nothing is refused', async () => {
    const policy = path.join(dataDir, 'policy.json');
    fs.writeFileSync(policy, JSON.stringify({ agentTools: 'off', egressAllow: [] }));
    const res = await cli(
      ['policy-replay', '--data', dataDir, '--policy', policy, '--json'],
      keyFile,
    );
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      examined: { toolCalls: 0, connections: 0 },
      findings: [],
    });
    fs.writeFileSync(policy, JSON.stringify({ agentTools: 'never' }));
    const bad = await cli(['policy-replay', '--data', dataDir, '--policy', policy], keyFile);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/agentTools/);
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
