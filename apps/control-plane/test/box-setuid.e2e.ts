import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LocalBoxDriver } from '../src/boxes/driver';
import { DEFAULT_BOX_IDENTITY } from '../src/boxes/driver/box-identity';
import { BOX_DRIVER } from '../src/infrastructure/tokens';
import { waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

/** Runs a shell snippet inside the session's box; resolves with its exit code and output. */
function inBox(api: RunningApp, sessionId: string, script: string) {
  const child = api.app.get<LocalBoxDriver>(BOX_DRIVER).exec(sessionId, ['/bin/sh', '-c', script]);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out })),
  );
}

const setIdBits = (file: string) => fs.lstatSync(file).mode & 0o6000;

/**
 * The plant an attacker tried: a setuid-root copy of `id` left in the workspace, run on the
 * host by an unprivileged user. The box's root is an unprivileged host uid, so the copy is
 * that uid's; snapshots, reverts and forks of it carry no set-id bit at all.
 */
describe('a setuid program planted in a box', () => {
  let api: RunningApp;
  let id: string;
  let workspace: string;

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    id = (await api.request('POST', '/api/sessions', { title: 'Planter' })).body.id;
    await waitForBox(api, id); // its daemon reached the gateway socket as the box's own uid
    workspace = path.join(api.dataDir, 'boxes', id, 'workspace');
    const planted = await inBox(
      api,
      id,
      'cp /usr/bin/id /workspace/suid-id && chmod 4755 /workspace/suid-id && ' +
        'mkdir /workspace/sgid-dir && chmod 2775 /workspace/sgid-dir && ls -ln /workspace/suid-id',
    );
    expect(planted).toMatchObject({ code: 0, out: expect.stringMatching(/^-rwsr-xr-x 1 0 0 /) });
  });
  afterAll(async () => {
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('keeps the data dir to the control plane alone', () => {
    expect(fs.statSync(api.dataDir).mode & 0o777).toBe(0o700);
  });

  it('is owned on the host by the box uid, so running it as nobody gives that uid, not root', () => {
    const file = path.join(workspace, 'suid-id');
    expect(fs.lstatSync(file).uid).toBe(DEFAULT_BOX_IDENTITY.uid);
    const out = execFileSync('setpriv', ['--reuid=65534', '--', file], { encoding: 'utf8' });
    expect(out).toContain(`euid=${DEFAULT_BOX_IDENTITY.uid}`);
    expect(out).not.toMatch(/euid=0\b/);
  });

  it('reads no host path in /proc, though its daemon is connected to the gateway socket', async () => {
    const r = await inBox(api, id, 'cat /proc/net/unix /proc/self/cgroup /proc/1/cgroup');
    expect(r.out).toMatch(/\/proc\/self\/fd\/\d+\/gateway\.sock/); // the daemon's connection
    expect(r.out).not.toContain(api.dataDir);
    expect(r.out).not.toContain('sessionboxer/data-');
  });

  it('is disarmed in a snapshot, a revert and a fork', async () => {
    const snap = await api.request('POST', `/api/sessions/${id}/snapshots`);
    expect(snap.status).toBe(201);
    const copy = path.join(api.dataDir, 'boxes', id, 'snapshots', snap.body.id);
    expect(setIdBits(path.join(copy, 'suid-id'))).toBe(0);
    expect(setIdBits(path.join(copy, 'sgid-dir'))).toBe(0);
    expect(fs.lstatSync(path.join(copy, 'suid-id')).mode & 0o777).toBe(0o755);

    const revert = `/api/sessions/${id}/snapshots/${snap.body.id}/revert`;
    expect((await api.request('POST', revert)).status).toBeLessThan(300);
    expect(setIdBits(path.join(workspace, 'suid-id'))).toBe(0);

    const fork = await api.request(
      'POST',
      `/api/sessions/${id}/snapshots/${snap.body.id}/fork`,
      {},
    );
    expect(fork.status).toBe(201);
    const forked = path.join(api.dataDir, 'boxes', fork.body.id, 'workspace', 'suid-id');
    await waitForBox(api, fork.body.id);
    expect(setIdBits(forked)).toBe(0);
    expect(fs.lstatSync(forked).uid).toBe(DEFAULT_BOX_IDENTITY.uid);
    // The fork's box can still use (and write) the files it was given.
    expect(await inBox(api, fork.body.id, 'rm /workspace/suid-id && echo gone')).toEqual({
      code: 0,
      out: 'gone\n',
    });
  });
});
