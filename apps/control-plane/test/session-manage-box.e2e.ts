import * as fs from 'node:fs';
import * as path from 'node:path';
import { boxPaths } from '../src/boxes';
import { script, turnFinished } from './agent/agent-kit';
import { waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

const HOURS_2_AGO = new Date(Date.now() - 2 * 60 * 60 * 1000);

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? filesUnder(p) : [p];
  });
}

/**
 * Deleting a session with a real box: the reaction destroys the box and the snapshot blob GC
 * runs at once through the jobs port (its files are aged past the GC's grace period first, as
 * the hourly run would find them), freeing the manifests and blobs only this session named.
 */
describe('deleting a session destroys its box and frees its snapshot blobs', () => {
  let api: RunningApp;
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('destroys the box and collects its snapshots', async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    const id = (await api.request('POST', '/api/sessions', { title: 'Gone', provider: 'scripted' }))
      .body.id as string;
    await waitForBox(api, id);
    const workspace = boxPaths(api.dataDir, id).workspace;
    fs.writeFileSync(path.join(workspace, 'only-mine.txt'), `bytes only session ${id} has`);
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: script({ say: 'Done.' }) });
    await turnFinished(api, id, 1);
    const manifests = path.join(api.dataDir, 'snapshot-manifests', id);
    await waitFor('the turn snapshot', () => filesUnder(manifests).length > 0);
    const blobs = filesUnder(path.join(api.dataDir, 'snapshot-blobs'));
    expect(blobs.length).toBeGreaterThan(0);
    for (const f of [...filesUnder(manifests), ...blobs])
      fs.utimesSync(f, HOURS_2_AGO, HOURS_2_AGO);

    expect((await api.request('DELETE', `/api/sessions/${id}`)).status).toBe(409);
    await api.request('POST', `/api/sessions/${id}/stop`, {});
    expect((await api.request('DELETE', `/api/sessions/${id}`)).status).toBe(204);

    await waitFor('the box folder removed', () => !fs.existsSync(boxPaths(api.dataDir, id).root));
    await waitFor('the manifests dropped', () => filesUnder(manifests).length === 0, 30_000);
    await waitFor(
      'the blobs freed',
      () => filesUnder(path.join(api.dataDir, 'snapshot-blobs')).length === 0,
      30_000,
    );
  }, 180_000);
});
