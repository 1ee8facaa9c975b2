import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { boxPaths, type BoxDriver } from '../src/boxes';
import { BOX_DRIVER } from '../src/infrastructure/tokens';
import { script, turnFinished } from './agent/agent-kit';
import { waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

/** Renamed into place, so a file is always one whole number. */
const WRITER =
  'n=0; while :; do n=$((n+1)); echo $n > a.t; mv a.t a; echo $n > z.t; mv z.t z; done';

/**
 * A turn's snapshot is one moment of the workspace: the box is frozen while it is read. A
 * process in the box counts on and on, writing `a` then `z` with each number; the snapshot
 * reads `a`, then the 400 files of `m/`, then `z`. Read while the writer runs, `z` would be
 * far ahead of `a`; frozen, `z` is `a` or one behind it. And the box runs again afterwards.
 */
describe("a turn's snapshot with the box frozen", () => {
  let api: RunningApp;
  let id: string;
  let writer: ChildProcess;

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    const created = await api.request('POST', '/api/sessions', {
      title: 'Frozen',
      provider: 'scripted',
    });
    id = created.body.id;
    await waitForBox(api, id);
    const workspace = boxPaths(api.dataDir, id).workspace;
    fs.mkdirSync(path.join(workspace, 'm'));
    for (let i = 0; i < 400; i++) fs.writeFileSync(path.join(workspace, 'm', `f${i}`), `${i}`);
    writer = api.app.get<BoxDriver>(BOX_DRIVER).exec(id, ['/bin/bash', '-c', WRITER]);
    await waitFor('the writer', () => fs.existsSync(path.join(workspace, 'z')));
  }, 60_000);
  afterAll(async () => {
    writer?.kill('SIGKILL');
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('reads every file at one moment, turn after turn, and thaws the box', async () => {
    const blob = (sha: string) =>
      Number(
        fs.readFileSync(path.join(api.dataDir, 'snapshot-blobs', sha.slice(0, 2), sha), 'utf8'),
      );
    for (let turn = 1; turn <= 3; turn++) {
      await api.request('POST', `/api/sessions/${id}/prompts`, {
        text: script({ say: `Turn ${turn}.` }),
      });
      await turnFinished(api, id, turn);
      const snapshot = await waitFor(`turn ${turn}'s snapshot`, async () =>
        (await api.request('GET', `/api/sessions/${id}/snapshots/turns`)).body.find(
          (s: any) => s.turn === turn,
        ),
      );
      const manifest = JSON.parse(
        fs.readFileSync(
          path.join(api.dataDir, 'snapshot-manifests', id, `${snapshot.id}.json`),
          'utf8',
        ),
      );
      const value = (name: string) =>
        blob(manifest.entries.find((e: any) => e.path === name).sha256);
      const [a, z] = [value('a'), value('z')];
      // z is a, or one behind when the writer was frozen between the two.
      expect(a - z).toBeGreaterThanOrEqual(0);
      expect(a - z).toBeLessThanOrEqual(1);
      expect(api.app.get<BoxDriver>(BOX_DRIVER).info(id)?.status).toBe('running');
    }
    // The writer was thawed with the box: it is still counting.
    const workspace = boxPaths(api.dataDir, id).workspace;
    const before = Number(fs.readFileSync(path.join(workspace, 'z'), 'utf8'));
    await waitFor('the writer to go on', () => {
      try {
        return Number(fs.readFileSync(path.join(workspace, 'z'), 'utf8')) > before;
      } catch {
        return false; // between a write and its rename
      }
    });
  }, 60_000);
});
