import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { ErrorCode } from '@sessionboxer/domain/kernel/errors';
import { type Kit, hostPidsWith, openKit } from './box-test-kit';

/** Bad specs are refused before any folder, cgroup or process exists. */
describe('box spec validation', () => {
  let kit: Kit;
  const marker = 'sbx-never-runs';
  const refused = (field: string) =>
    expect.objectContaining({ code: ErrorCode.ValidationFailed, details: { field } });

  beforeAll(async () => {
    kit = await openKit({ isolation: 'bubblewrap' });
  });
  afterAll(() => kit.close());

  afterEach(() => {
    expect(hostPidsWith(marker)).toEqual([]);
  });

  const command = ['/bin/sh', '-c', 'sleep 100', marker];

  it('refuses a workspace path with ".." even when it would resolve inside the data dir', async () => {
    const spec = kit.spec(command);
    const sneaky = path.join(kit.dataDir, 'boxes', 'x') + '/../ws';
    await expect(kit.driver.create({ ...spec, workspaceDir: sneaky })).rejects.toEqual(
      refused('workspaceDir'),
    );
    const gw = `${kit.dataDir}/boxes/../../etc`;
    await expect(kit.driver.create({ ...spec, gatewaySocketDir: gw })).rejects.toEqual(
      refused('gatewaySocketDir'),
    );
    expect(readdirSync(kit.dataDir)).toEqual([]);
    expect(kit.driver.info(spec.sessionId)).toBeNull();
  });

  it('refuses an invalid session id', async () => {
    for (const sessionId of ['../etc', 'abc', '', `${kit.spec([]).sessionId}/x`]) {
      await expect(kit.driver.create({ ...kit.spec(command), sessionId })).rejects.toEqual(
        refused('sessionId'),
      );
    }
    await expect(kit.driver.destroy('../x')).rejects.toEqual(refused('sessionId'));
    await expect(kit.driver.freeze('x')).rejects.toEqual(refused('sessionId'));
    expect(readdirSync(kit.dataDir)).toEqual([]);
  });

  it('refuses folders outside the data dir, relative ones, and the data dir itself', async () => {
    for (const workspaceDir of ['/tmp/elsewhere', 'boxes/ws', kit.dataDir, '/']) {
      await expect(kit.driver.create({ ...kit.spec(command), workspaceDir })).rejects.toEqual(
        refused('workspaceDir'),
      );
    }
    expect(existsSync('/tmp/elsewhere')).toBe(false);
  });

  it('refuses a folder that reaches outside through a symlink, without creating anything there', async () => {
    const outside = path.join(kit.dataDir, '..', `${path.basename(kit.dataDir)}-outside`);
    mkdirSync(outside);
    symlinkSync(outside, path.join(kit.dataDir, 'link'));
    const workspaceDir = path.join(kit.dataDir, 'link', 'ws');
    try {
      await expect(kit.driver.create({ ...kit.spec(command), workspaceDir })).rejects.toEqual(
        refused('workspaceDir'),
      );
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses folders shared with or nested in another box', async () => {
    const a = kit.spec(['/usr/bin/sleep', 'infinity']);
    await kit.driver.create(a);
    const nested = path.join(a.workspaceDir, 'inner');
    await expect(kit.driver.create({ ...kit.spec(command), workspaceDir: nested })).rejects.toEqual(
      refused('workspaceDir'),
    );
    const shared = { ...kit.spec(command), gatewaySocketDir: a.gatewaySocketDir };
    await expect(kit.driver.create(shared)).rejects.toEqual(refused('gatewaySocketDir'));
    await expect(kit.driver.create(a)).rejects.toEqual(
      expect.objectContaining({ code: ErrorCode.AlreadyExists }),
    );
  });

  it('refuses a bad command or environment', async () => {
    await expect(kit.driver.create(kit.spec([]))).rejects.toEqual(refused('command'));
    await expect(kit.driver.create(kit.spec('sh -c x' as never))).rejects.toEqual(
      refused('command'),
    );
    await expect(kit.driver.create(kit.spec(command, { 'BAD NAME': 'x' }))).rejects.toEqual(
      refused('env'),
    );
    await expect(kit.driver.create(kit.spec(command, { A: 'nul\0' }))).rejects.toEqual(
      refused('env'),
    );
  });

  it('answers NotFound for a box it never had', async () => {
    await expect(kit.driver.destroy(kit.spec([]).sessionId)).rejects.toEqual(
      expect.objectContaining({ code: ErrorCode.NotFound }),
    );
  });
});
