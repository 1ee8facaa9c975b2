import * as fs from 'node:fs';
import * as path from 'node:path';
import { boxPaths } from '../src/boxes';
import { SnapshotBlobsGc, BLOB_GC_SCHEDULE } from '../src/boxes/snapshots/blob-gc.service';
import { JOBS, type JobsPort } from '../src/jobs';
import { script, turnFinished } from './agent/agent-kit';
import { waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

const ORPHAN_SESSION = '0d0d0d0d-0000-4000-8000-00000000000d';
const ORPHAN_SNAPSHOT = '0e0e0e0e-0000-4000-8000-00000000000e';
const HOURS_2 = 2 * 60 * 60 * 1000;

function blobNames(dataDir: string): Set<string> {
  const root = path.join(dataDir, 'snapshot-blobs');
  return new Set(
    fs
      .readdirSync(root)
      .filter((d) => d.length === 2)
      .flatMap((d) => fs.readdirSync(path.join(root, d))),
  );
}

function manifestBlobs(file: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  return manifest.entries.filter((e: any) => e.type === 'file').map((e: any) => e.sha256);
}

/**
 * The collection of snapshot blobs in the running app, over a session's real turn snapshots:
 * the blobs its snapshots share survive and a fork from its first turn still has every file;
 * the blobs only an orphaned manifest (a snapshot the history does not have) names, and one
 * no manifest names, are deleted; the hourly schedule is on the jobs port.
 */
describe('collecting the blobs no snapshot names, in the running app', () => {
  let api: RunningApp;
  let id: string;

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    const created = await api.request('POST', '/api/sessions', {
      title: 'GC',
      provider: 'scripted',
    });
    id = created.body.id;
    await waitForBox(api, id);
    const workspace = boxPaths(api.dataDir, id).workspace;
    fs.writeFileSync(path.join(workspace, 'kept-by-all.txt'), 'unchanged in every turn');
    for (let turn = 1; turn <= 3; turn++) {
      fs.writeFileSync(path.join(workspace, 'notes.md'), `notes of turn ${turn}\n`);
      await api.request('POST', `/api/sessions/${id}/prompts`, {
        text: script({ say: `Turn ${turn}.` }),
      });
      await turnFinished(api, id, turn);
      await waitFor(`turn ${turn}'s snapshot`, async () =>
        (await api.request('GET', `/api/sessions/${id}/snapshots/turns`)).body.find(
          (s: any) => s.turn === turn,
        ),
      );
    }
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('keeps every blob a live snapshot names and deletes the orphaned ones', async () => {
    const manifests = path.join(api.dataDir, 'snapshot-manifests');
    const live = fs
      .readdirSync(path.join(manifests, id))
      .flatMap((m) => manifestBlobs(path.join(manifests, id, m)));
    // A manifest of a snapshot the history does not have, with a blob of its own, and a blob
    // no manifest names.
    const blobsRoot = path.join(api.dataDir, 'snapshot-blobs');
    const orphan = 'f'.repeat(64);
    const stray = 'e'.repeat(64);
    for (const name of [orphan, stray]) {
      fs.mkdirSync(path.join(blobsRoot, name.slice(0, 2)), { recursive: true });
      fs.writeFileSync(path.join(blobsRoot, name.slice(0, 2), name), `bytes of ${name[0]}`);
    }
    const orphanManifest = path.join(manifests, ORPHAN_SESSION, `${ORPHAN_SNAPSHOT}.json`);
    fs.mkdirSync(path.dirname(orphanManifest));
    fs.writeFileSync(
      orphanManifest,
      JSON.stringify({
        format: 'sessionboxer-snapshot-manifest/1',
        entries: [
          {
            path: 'x',
            type: 'file',
            mode: 0o644,
            uid: 0,
            gid: 0,
            mtimeMs: 0,
            size: 11,
            sha256: orphan,
          },
          {
            path: 'y',
            type: 'file',
            mode: 0o644,
            uid: 0,
            gid: 0,
            mtimeMs: 0,
            size: 1,
            sha256: live[0],
          },
        ],
      }),
    );
    expect(new Set(live).size).toBeLessThan(live.length); // the snapshots share blobs

    // Two hours on, everything is past the grace period.
    const done = await api.app.get(SnapshotBlobsGc).collect({ now: Date.now() + HOURS_2 });

    const left = blobNames(api.dataDir);
    expect([...new Set(live)].filter((b) => !left.has(b))).toEqual([]);
    expect(left.has(orphan)).toBe(false);
    expect(left.has(stray)).toBe(false);
    expect(fs.existsSync(orphanManifest)).toBe(false);
    expect(done).toEqual({
      kept: new Set(live).size,
      deleted: 2,
      freedBytes: 2 * 'bytes of f'.length,
      manifestsDropped: 1,
    });

    // A fork from turn 1 after it has every file of turn 1.
    const turns = (await api.request('GET', `/api/sessions/${id}/snapshots/turns`)).body;
    const forked = await api.request(
      'POST',
      `/api/sessions/${id}/snapshots/${turns[0].id}/fork`,
      {},
    );
    expect(forked.status).toBe(201);
    const ws = boxPaths(api.dataDir, forked.body.id).workspace;
    expect(fs.readFileSync(path.join(ws, 'notes.md'), 'utf8')).toBe('notes of turn 1\n');
    expect(fs.readFileSync(path.join(ws, 'kept-by-all.txt'), 'utf8')).toBe(
      'unchanged in every turn',
    );

    // Run again at once: nothing more to collect.
    expect(await api.app.get(SnapshotBlobsGc).collect({ now: Date.now() + HOURS_2 })).toMatchObject(
      {
        deleted: 0,
        freedBytes: 0,
      },
    );
  });

  it('runs every hour through the jobs port, and a fire collects', async () => {
    const jobs = api.app.get<JobsPort>(JOBS);
    expect((await jobs.listSchedules()).find((s) => s.id === BLOB_GC_SCHEDULE.id)).toMatchObject({
      cron: '23 * * * *',
      timezone: 'UTC',
    });
    // A blob no manifest names, two hours old; the schedule made to fire every second.
    const stray = 'd'.repeat(64);
    const file = path.join(api.dataDir, 'snapshot-blobs', 'dd', stray);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'stray');
    const old = new Date(Date.now() - HOURS_2);
    fs.utimesSync(file, old, old);
    await jobs.upsertSchedule({ ...BLOB_GC_SCHEDULE, cron: '* * * * * *', timezone: 'UTC' });
    try {
      await waitFor('the scheduled collection', () => !fs.existsSync(file), 15_000);
    } finally {
      await jobs.upsertSchedule({ ...BLOB_GC_SCHEDULE, timezone: 'UTC' });
    }
    // The turns' blobs are all still there.
    const turns = (await api.request('GET', `/api/sessions/${id}/snapshots/turns`)).body;
    const manifests = path.join(api.dataDir, 'snapshot-manifests', id);
    const names = blobNames(api.dataDir);
    for (const t of turns) {
      for (const b of manifestBlobs(path.join(manifests, `${t.id}.json`)))
        expect(names.has(b)).toBe(true);
    }
  });
});
