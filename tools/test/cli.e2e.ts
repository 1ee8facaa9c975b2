import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { startApp, type RunningApp } from '../../apps/control-plane/test/harness';

const root = path.resolve(__dirname, '../..');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', '@swc-node/register', path.join(root, 'tools/cli/main.ts'), ...args],
      { cwd: root, env: { ...process.env, EVENTSTORE_URL: '' }, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the operators\u2019 CLI against a real data folder', () => {
  let api: RunningApp;
  let ids: string[];

  beforeAll(async () => {
    api = await startApp();
    ids = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await api.request('POST', '/api/sessions', { title: `Session ${i}` })).body.id as string,
      );
    }
    await api.request('PATCH', `/api/sessions/${ids[0]}`, { title: 'Renamed' });
    await api.request('POST', `/api/sessions/${ids[1]}/stop`, {});
  });
  afterAll(async () => {
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('exports $all as JSON lines, in order', async () => {
    const res = await cli(['events', '--data', api.dataDir]);
    expect(res.code).toBe(0);
    const events = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; position: number });
    expect(events).toHaveLength(7);
    expect(events.map((e) => e.position)).toEqual(
      [...events.map((e) => e.position)].sort((a, b) => a - b),
    );
    expect(res.stderr).toContain('7 events');
  });

  it('exports one stream to a file, backwards, with a limit', async () => {
    const out = path.join(api.dataDir, 'export.jsonl');
    const res = await cli([
      'events',
      '--data',
      api.dataDir,
      '--stream',
      `session-${ids[0]}`,
      '--backwards',
      '--limit',
      '1',
      '--out',
      out,
    ]);
    expect(res.code).toBe(0);
    const lines = fs.readFileSync(out, 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(['SessionTitleSet']);
  });

  it('replays the history and finds the live read models equal, while the server runs', async () => {
    const res = await cli(['replay', '--data', api.dataDir]);
    expect(res.stdout).toContain('read models equal the replayed history');
    expect(res.stdout).toMatch(/sidebar_tree: equal/);
    expect(res.stdout).toMatch(/transcript_markers: equal/);
    expect(res.code).toBe(0);
  });

  it('reports a tampered read model as different, naming the document', async () => {
    await api.close();
    const db = new Database(path.join(api.dataDir, 'read-models.sqlite'));
    const table = (
      db
        .prepare("select name from sqlite_master where type='table' and name like '%sidebar_tree%'")
        .get() as { name: string }
    ).name;
    db.prepare(`update "${table}" set doc = json_set(doc, '$.title', 'Tampered') where id = ?`).run(
      ids[2],
    );
    db.close();
    const res = await cli(['replay', '--data', api.dataDir, '--json']);
    expect(res.code).toBe(3);
    const report = JSON.parse(res.stdout) as {
      equal: boolean;
      comparison: { projections: { projection: string; changed: string[] }[] };
    };
    expect(report.equal).toBe(false);
    const sidebar = report.comparison.projections.find((p) => p.projection === 'sidebar_tree');
    expect(sidebar?.changed).toEqual([ids[2]]);
    api = await startApp(api.dataDir);
  });

  it('refuses bad arguments with a usage error', async () => {
    expect((await cli(['events', '--data', api.dataDir, '--limit', 'zero'])).code).toBe(2);
    expect((await cli(['frobnicate', '--data', api.dataDir])).stderr).toContain(
      'unknown command frobnicate',
    );
    const missing = await cli(['replay', '--data', path.join(api.dataDir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no event store');
  });
});
