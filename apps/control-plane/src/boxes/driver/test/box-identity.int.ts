import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DEFAULT_BOX_IDENTITY, identityProblem } from '../box-identity';
import { type Kit, openKit, sh } from './box-test-kit';

const BOX_ROOT = DEFAULT_BOX_IDENTITY.uid;

/**
 * Root in a box is an unprivileged host uid: what a box writes is that uid's, so a setuid
 * program an agent plants gives whoever runs it on the host nothing but that uid.
 */
describe('who a bubblewrap box is on the host', () => {
  let kit: Kit;
  let id: string;
  let workspace: string;
  const run = (script: string) => sh(kit.driver, id, script);

  beforeAll(async () => {
    kit = await openKit({ isolation: 'bubblewrap' });
    const spec = kit.spec(['/usr/bin/sleep', 'infinity']);
    workspace = spec.workspaceDir;
    mkdirSync(workspace, { recursive: true });
    writeFileSync(path.join(workspace, 'from-the-host'), 'x'); // as a fork's copied files are
    id = (await kit.driver.create(spec)).sessionId;
  });

  afterAll(() => kit.close());

  it('is root inside, and its files belong to the box range outside', async () => {
    const r = await run('id -u; id -g; touch /workspace/made-in-box; echo y >> from-the-host');
    expect(r.stdout).toBe('0\n0\n');
    expect(r.stderr).toBe('');
    for (const f of ['made-in-box', 'from-the-host', '.']) {
      const st = lstatSync(path.join(workspace, f));
      expect([st.uid, st.gid]).toEqual([BOX_ROOT, DEFAULT_BOX_IDENTITY.gid]);
    }
  });

  it('plants a setuid copy of id that makes a host user the box uid, never root', async () => {
    const r = await run('cp /usr/bin/id /workspace/suid-id && chmod 4755 /workspace/suid-id');
    expect(r.code).toBe(0);
    const planted = path.join(workspace, 'suid-id');
    const st = lstatSync(planted);
    expect(st.uid).not.toBe(0);
    const out = execFileSync('setpriv', ['--reuid=65534', '--', planted], { encoding: 'utf8' });
    expect(out).toContain(`euid=${BOX_ROOT}`);
    expect(out).not.toMatch(/euid=0\b/);
  });

  it('shows no host cgroup path and no host socket path under /proc', async () => {
    const r = await run('cat /proc/self/cgroup | grep "^0::"; cat /proc/net/unix | tail -n +2');
    expect(r.stdout).toBe('0::/\n');
  });

  it('opens ptys with the tty group mapped: xterm runs', async () => {
    expect(existsSync('/usr/bin/xterm') && existsSync('/usr/bin/Xvfb')).toBe(true);
    const r = await run(
      'Xvfb :7 -nolisten tcp >/dev/null 2>&1 & x=$!; ' +
        'for i in $(seq 100); do [ -e /tmp/.X11-unix/X7 ] && break; sleep 0.05; done; ' +
        'DISPLAY=:7 timeout 20 xterm -e sh -c "tty > /workspace/xterm-tty" 2>&1; ' +
        'kill $x; cat /workspace/xterm-tty',
    );
    expect(r.stdout).not.toMatch(/Cannot chown/);
    expect(r.stdout).toMatch(/^\/dev\/pts\/\d+$/m);
  });
});

describe('the box id range', () => {
  it('is the one the operator chose (SESSIONBOXER_BOX_UID_BASE)', async () => {
    const identity = { uid: 700000, gid: 700001, count: 65536 };
    const kit = await openKit({ isolation: 'bubblewrap', identity });
    try {
      const spec = kit.spec(['/usr/bin/sleep', 'infinity']);
      await kit.driver.create(spec);
      expect((await sh(kit.driver, spec.sessionId, 'touch /workspace/f')).code).toBe(0);
      const st = lstatSync(path.join(spec.workspaceDir, 'f'));
      expect([st.uid, st.gid]).toEqual([700000, 700001]);
    } finally {
      await kit.close();
    }
  });

  it('is refused when a host account lives inside it, or it is too small', () => {
    const passwd = path.join(mkdtempSync(path.join(tmpdir(), 'sbx-passwd-')), 'passwd');
    writeFileSync(passwd, 'root:x:0:0::/root:/bin/sh\nalice:x:530000:530000::/home/a:/bin/sh\n');
    expect(identityProblem(DEFAULT_BOX_IDENTITY, passwd)).toMatch(/alice \(uid 530000\)/);
    expect(identityProblem({ uid: 600000, gid: 600000, count: 65536 }, passwd)).toBeNull();
    expect(identityProblem({ uid: 600000, gid: 600000, count: 1000 }, passwd)).toMatch(/65536/);
    expect(identityProblem({ uid: 0, gid: 0, count: 65536 }, passwd)).toMatch(/above 0/);
  });
});
