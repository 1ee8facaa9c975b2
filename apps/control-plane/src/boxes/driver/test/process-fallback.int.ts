import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import * as path from 'node:path';
import { NOT_ISOLATED_WARNING } from '../local-box-driver';
import { type Kit, openKit, runIn, sh, until } from './box-test-kit';

/**
 * The fallback when bubblewrap is unusable: plain processes in the workspace. It works, and
 * it isolates nothing; these tests pin down exactly that, so nobody mistakes it for a box.
 */
describe('process fallback (no isolation)', () => {
  let kit: Kit;
  let host: Server;
  let hostPort: number;

  beforeAll(async () => {
    kit = await openKit({ isolation: 'process' });
    host = createServer((s) => s.end('host\n'));
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    hostPort = (host.address() as { port: number }).port;
  });
  afterAll(async () => {
    host.close();
    await kit.close();
  });

  it('says loudly, at creation and in the box info, that the box is not isolated', async () => {
    expect(kit.driver.isolation).toBe('process');
    const spec = kit.spec(['/usr/bin/sleep', 'infinity']);
    const info = await kit.driver.create(spec);
    expect(info).toMatchObject({
      isolation: 'process',
      status: 'running',
      warning: NOT_ISOLATED_WARNING,
    });
    expect(info.warning).toMatch(/^NOT ISOLATED/);
    expect(kit.warnings.some((w) => w.includes(spec.sessionId) && w.includes('NOT ISOLATED'))).toBe(
      true,
    );
    expect(kit.driver.info(spec.sessionId)?.warning).toBe(NOT_ISOLATED_WARNING);
  });

  it('runs the command in the workspace with the given environment only', async () => {
    process.env.SBX_HOST_ONLY = 'host secret';
    const spec = kit.spec(['/bin/sh', '-c', 'pwd > where; env > env.txt; exec sleep 1000'], {
      AGENT_TOKEN: 't',
    });
    try {
      await kit.driver.create(spec);
    } finally {
      delete process.env.SBX_HOST_ONLY;
    }
    const file = (name: string) => path.join(spec.workspaceDir, name);
    await until(
      () => existsSync(file('env.txt')) && readFileSync(file('env.txt'), 'utf8').includes('PATH='),
    );
    expect(readFileSync(file('where'), 'utf8').trim()).toBe(realpathSync(spec.workspaceDir));
    const env = readFileSync(file('env.txt'), 'utf8');
    expect(env).toContain(`HOME=${spec.workspaceDir}`);
    expect(env).toContain(`SESSIONBOXER_SESSION_ID=${spec.sessionId}`);
    expect(env).toContain('SESSIONBOXER_ISOLATION=process');
    expect(env).toContain('AGENT_TOKEN=t');
    expect(env).not.toContain('SBX_HOST_ONLY');
  });

  it('is NOT isolated: it reaches the host loopback and sees the host file system', async () => {
    const spec = kit.spec(['/usr/bin/sleep', 'infinity']);
    await kit.driver.create(spec);
    const client = `require('net').connect(${hostPort}, '127.0.0.1').on('data', (d) => { process.stdout.write(d); process.exit(0); }).on('error', (e) => console.log(e.code));`;
    const r = await runIn(kit.driver, spec.sessionId, ['/usr/bin/node', '-e', client]);
    expect(r.stdout).toBe('host\n');
    const fs = await sh(
      kit.driver,
      spec.sessionId,
      `test -d /root && test -e ${kit.dataDir} && echo visible; pwd`,
    );
    expect(fs.stdout).toBe(`visible\n${realpathSync(spec.workspaceDir)}\n`);
  });

  it('exec maps /workspace paths onto the workspace folder', async () => {
    const spec = kit.spec(['/usr/bin/sleep', 'infinity']);
    await kit.driver.create(spec);
    await sh(kit.driver, spec.sessionId, 'mkdir sub');
    const r = await runIn(kit.driver, spec.sessionId, ['/bin/pwd'], { cwd: '/workspace/sub' });
    expect(r.stdout.trim()).toBe(path.join(realpathSync(spec.workspaceDir), 'sub'));
  });
});
