import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import * as path from 'node:path';
import { BOX_CAPS } from '../bubblewrap';
import { findProjectRoot } from '../host';
import { type Kit, openKit, sh } from './box-test-kit';

const CAP_BITS: Record<string, number> = {
  chown: 0,
  dac_override: 1,
  fowner: 3,
  fsetid: 4,
  kill: 5,
  setgid: 6,
  setuid: 7,
  net_bind_service: 10,
  sys_chroot: 18,
};
const boxCapMask = () => BOX_CAPS.reduce((m, c) => m | (1n << BigInt(CAP_BITS[c])), 0n);

/** What a bubblewrap box can and cannot see, checked from inside the box. */
describe('bubblewrap box isolation', () => {
  let kit: Kit;
  let id: string;
  let other: string;
  let otherWorkspace: string;
  let host: Server;
  let hostPort: number;
  const run = (script: string) => sh(kit.driver, id, script);

  beforeAll(async () => {
    kit = await openKit({ isolation: 'bubblewrap' });
    expect(kit.driver.isolation).toBe('bubblewrap');
    writeFileSync(path.join(kit.dataDir, 'events.sqlite'), 'not for boxes');
    const b = kit.spec(['/usr/bin/sleep', 'infinity']);
    otherWorkspace = b.workspaceDir;
    mkdirSync(otherWorkspace, { recursive: true });
    writeFileSync(path.join(otherWorkspace, 'secret-of-b'), 'b');
    other = (await kit.driver.create(b)).sessionId;
    process.env.SBX_HOST_ONLY = 'host secret';
    const a = kit.spec(['/usr/bin/sleep', 'infinity'], { AGENT_TOKEN: 'a b "c"' });
    id = (await kit.driver.create(a)).sessionId;
    host = createServer((s) => s.end('host\n'));
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    hostPort = (host.address() as { port: number }).port;
  });

  afterAll(async () => {
    delete process.env.SBX_HOST_ONLY;
    host.close();
    await kit.close();
  });

  it('cannot reach a TCP server on the host loopback, and has only lo', async () => {
    const client = `require('net').connect(${hostPort}, '127.0.0.1')
      .on('connect', () => { console.log('connected'); process.exit(0); })
      .on('error', (e) => { console.log(e.code); process.exit(0); });`;
    const r = await run(`/usr/bin/node -e "${client}"; tail -n +3 /proc/net/dev | cut -d: -f1`);
    expect(r.stdout.split('\n').map((l) => l.trim())).toEqual(['ECONNREFUSED', 'lo', '']);
  });

  it("does not see another box's workspace, the data dir, /root, /work or the repo's .git", async () => {
    const paths = [
      otherWorkspace,
      path.join(otherWorkspace, 'secret-of-b'),
      kit.dataDir,
      '/root',
      '/work',
      path.join(findProjectRoot(), '.git/HEAD'),
    ];
    expect(paths.every((p) => existsSync(p))).toBe(true); // all there on the host
    const inBox = [...paths, '/opt/sessionboxer/.git/HEAD', '/opt/sessionboxer/.git/config'];
    const r = await run(inBox.map((p) => `test -e '${p}' && echo "visible ${p}"`).join('; '));
    expect(r.stdout).toBe('');
    const ws = await run('ls -A /workspace; find / -xdev -name secret-of-b 2>/dev/null');
    expect(ws.stdout).toBe('');
  });

  it('sees the project read-only at /opt/sessionboxer, with an empty .git', async () => {
    const r = await run(
      'head -c 200 /opt/sessionboxer/package.json; ls -A /opt/sessionboxer/.git; ' +
        'touch /opt/sessionboxer/x 2>&1',
    );
    expect(r.stdout).toContain('"name": "sessionboxer"');
    expect(r.stdout).toContain('Read-only file system');
  });

  it('cannot write /usr, not even after trying to remount it read-write', async () => {
    const r = await run(
      'touch /usr/sbx 2>&1; mount -o remount,rw,bind /usr 2>&1; touch /usr/sbx 2>&1',
    );
    expect(r.stdout).toContain('Read-only file system');
    expect(r.stdout).toMatch(/permission denied|must be superuser/i);
    expect(existsSync('/usr/sbx')).toBe(false);
    const caps = await run(
      'grep -E "^Cap(Eff|Bnd)" /proc/self/status; grep -E "^CapEff" /proc/1/status',
    );
    // Only a container root's capabilities, never CAP_SYS_ADMIN (bit 21); bwrap's init: none.
    const mask = boxCapMask().toString(16).padStart(16, '0');
    const none = '0'.repeat(16);
    expect(caps.stdout).toBe(`CapEff:\t${mask}\nCapBnd:\t${mask}\nCapEff:\t${none}\n`);
    expect(boxCapMask() & (1n << 21n)).toBe(0n);
  });

  it('writes /workspace, and the file appears in the host folder', async () => {
    const r = await run('echo from-box > /workspace/hello.txt && pwd');
    expect(r.stdout).toBe('/workspace\n');
    const ws = kit.driver.info(id)?.workspaceDir as string;
    expect(readFileSync(path.join(ws, 'hello.txt'), 'utf8')).toBe('from-box\n');
  });

  it('sees only its own processes', async () => {
    const r = await run('for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline; echo; done');
    const cmds = r.stdout.split('\n').filter((l) => l.trim() !== '');
    expect(cmds.length).toBeLessThanOrEqual(5); // bwrap init, sleep, the exec chain, the loop
    expect(cmds.some((c) => c.includes('sleep infinity'))).toBe(true);
    expect(cmds.some((c) => c.includes('jest') || c.includes(String(process.pid)))).toBe(false);
    expect((await run('echo $$')).stdout.trim()).toMatch(/^\d{1,2}$/);
  });

  it('gets only the environment it was given, its own hostname and /tmp', async () => {
    const r = await run('env | sort; hostname; ls -A /tmp');
    const lines = r.stdout.split('\n');
    expect(lines).toContain(`SESSIONBOXER_SESSION_ID=${id}`);
    expect(lines).toContain('HOME=/workspace');
    expect(lines).toContain('AGENT_TOKEN=a b "c"');
    expect(lines).toContain('PATH=/usr/local/bin:/usr/bin:/bin');
    expect(r.stdout).not.toContain('SBX_HOST_ONLY');
    expect(r.stdout).not.toContain('JEST_WORKER_ID');
    expect(lines).toContain(`box-${id.slice(0, 8)}`);
    expect(other).not.toBe(id);
  });

  it('hides host secrets under /etc', async () => {
    const r = await run(
      'cat /etc/shadow 2>&1 | head -c 300; echo; cat /etc/hostname >/dev/null && echo ok',
    );
    expect(r.stdout).not.toContain('root:');
    expect(r.stdout).toContain('ok');
  });
});
