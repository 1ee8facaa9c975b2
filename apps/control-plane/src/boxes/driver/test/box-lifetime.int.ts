import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { hostPidsWith, openKit, sh, until } from './box-test-kit';

/**
 * Boxes die with the control plane: a bubblewrap box entirely (bwrap --die-with-parent kills
 * its pid namespace); a plain-process box only its main process (setpriv --pdeathsig), its
 * descendants live on until the next driver on the host sweeps the dead owner's cgroups.
 */
describe.each(['bubblewrap', 'process'])('a %s box when the control plane dies', (isolation) => {
  it('dies with it, or is swept by the next driver', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sbx-parent-'));
    const marker = `sbx-orphan-${Math.floor(Math.random() * 1e9)}`;
    const standIn = path.join(__dirname, 'control-plane-stand-in.ts');
    const cp = spawn(
      process.execPath,
      ['-r', '@swc-node/register', standIn, dataDir, isolation, marker],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        cp.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        cp.once('exit', (code) => reject(new Error(`stand-in exited ${code}`)));
      });
      await until(() => hostPidsWith(`${marker}-child`).length > 0);
      const gone = new Promise((r) => cp.once('exit', r));
      cp.kill('SIGKILL');
      await gone;
      await until(() => hostPidsWith(`${marker}\0`).length === 0, 5000); // the main process
      if (isolation === 'bubblewrap') {
        expect(hostPidsWith(marker)).toEqual([]);
      } else {
        expect(hostPidsWith(`${marker}-child`).length).toBe(1); // what process boxes leak...
        // ...which a control plane of another data dir leaves alone: not its boxes...
        const other = await openKit({ isolation: 'process' });
        await other.close();
        expect(hostPidsWith(`${marker}-child`).length).toBe(1);
        // ...until the next driver of the same data dir sweeps it.
        const next = await openKit({ isolation: 'process', dataDir });
        await next.close();
        expect(hostPidsWith(marker)).toEqual([]);
      }
    } finally {
      cp.kill('SIGKILL');
      for (const pid of hostPidsWith(marker)) process.kill(pid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('box output', () => {
  it('goes to <logDir>/box-<id>.log; a command missing in the box ends it, saying why', async () => {
    const logDir = mkdtempSync(path.join(tmpdir(), 'sbx-logs-'));
    const kit = await openKit({ isolation: 'bubblewrap', logDir });
    const exits: [string, number | null][] = [];
    kit.driver.onExit((id, code) => exits.push([id, code]));
    try {
      const talker = kit.spec(['/bin/sh', '-c', 'echo out; echo err >&2; exec sleep 1000']);
      const missing = kit.spec(['/opt/sessionboxer/no-such-daemon']);
      await kit.driver.create(talker);
      await kit.driver.create(missing);
      const log = (id: string) => path.join(logDir, `box-${id}.log`);
      const read = (id: string) => (existsSync(log(id)) ? readFileSync(log(id), 'utf8') : '');
      await until(() => read(talker.sessionId).includes('err') && exits.length === 1);
      expect(read(talker.sessionId).split('\n').sort()).toEqual(['', 'err', 'out']);
      expect(exits).toEqual([[missing.sessionId, 1]]);
      expect(read(missing.sessionId)).toMatch(/execvp .*no-such-daemon: No such file/);
      expect(kit.warnings.join('\n')).toMatch(/exited \(code 1.*no-such-daemon/);
    } finally {
      await kit.close();
      rmSync(logDir, { recursive: true, force: true });
    }
  });
});

describe('driver choice', () => {
  it("'auto' probes once and picks bubblewrap and the cgroup v2 freezer on this host", async () => {
    const kit = await openKit();
    try {
      expect([kit.driver.isolation, kit.driver.freezer]).toEqual(['bubblewrap', 'cgroup-v2']);
      expect(kit.logs).toEqual([
        'boxes: bubblewrap isolation (root in a box is host uid 524288), cgroup-v2 freezer',
      ]);
    } finally {
      await kit.close();
    }
  });
});

/** A data dir inside the project (`./data` by default) is hidden from the project mount. */
describe('a project that holds the data dir', () => {
  it('shows the project at /opt/sessionboxer without .git, .env or the data dir', async () => {
    const project = mkdtempSync(path.join(tmpdir(), 'sbx-project-'));
    chmodSync(project, 0o755); // as a checkout is: boxes run as an unprivileged host uid
    writeFileSync(path.join(project, 'package.json'), '{"name":"sessionboxer"}');
    mkdirSync(path.join(project, '.git'));
    writeFileSync(path.join(project, '.git', 'HEAD'), 'ref: refs/heads/main');
    writeFileSync(path.join(project, '.env'), 'SECRET=1');
    mkdirSync(path.join(project, 'dist'));
    writeFileSync(path.join(project, 'dist', 'main.js'), '// daemon');
    const dataDir = path.join(project, 'data');
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, 'events.sqlite'), 'events');
    const kit = await openKit({ isolation: 'bubblewrap', projectRoot: project, dataDir });
    try {
      const spec = kit.spec(['/usr/bin/sleep', 'infinity']);
      await kit.driver.create(spec);
      const r = await sh(
        kit.driver,
        spec.sessionId,
        'cd /opt/sessionboxer && cat dist/main.js; echo; ls -A .git data; wc -c < .env; ls /workspace',
      );
      expect(r.stdout).toBe('// daemon\n.git:\n\ndata:\n');
      expect(r.stderr).toContain('.env: Permission denied');
    } finally {
      await kit.close();
      rmSync(project, { recursive: true, force: true });
    }
  });
});
