import { type ChildProcess, spawn } from 'node:child_process';
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
import type { BoxIsolation } from '../box-driver.port';
import { hostPidsWith, openKit, sh, until } from './box-test-kit';

/** A stand-in control plane (see control-plane-stand-in.ts) run to its "ready" line. */
async function standIn(args: string[]): Promise<{ cp: ChildProcess; said: string }> {
  const file = path.join(__dirname, 'control-plane-stand-in.ts');
  const cp = spawn(process.execPath, ['-r', '@swc-node/register', file, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const said = await new Promise<string>((resolve, reject) => {
    cp.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (.*)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    cp.once('exit', (code) => reject(new Error(`stand-in exited ${code}: ${out}`)));
  });
  return { cp, said };
}

async function killNow(cp: ChildProcess): Promise<void> {
  if (cp.exitCode !== null || cp.signalCode !== null) return;
  const gone = new Promise((r) => cp.once('exit', r));
  cp.kill('SIGKILL');
  await gone;
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/**
 * Boxes outlive the control plane: killed with SIGKILL, it leaves its boxes running, a driver
 * of another data dir leaves them alone, the next driver of the same data dir adopts them
 * (same pids, exec and freeze work on them), the one after finds them frozen, and a box whose
 * processes were killed meanwhile (a host reboot) is found lost, its files kept.
 */
describe.each(['bubblewrap', 'process'])('a %s box when the control plane dies', (isolation) => {
  it('lives on, and the next driver of its data dir adopts it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sbx-parent-'));
    const marker = `sbx-orphan-${Math.floor(Math.random() * 1e9)}`;
    const started: ChildProcess[] = [];
    const run = async (mode: string) => {
      const r = await standIn([dataDir, isolation, marker, mode]);
      started.push(r.cp);
      return r;
    };
    // The stand-ins carry the marker too: only the box's processes count.
    const pids = () =>
      hostPidsWith(`${marker}\0`)
        .filter((pid) => !started.some((cp) => cp.pid === pid))
        .sort((a, b) => a - b);
    try {
      const first = await run('create');
      const sessionId = first.said;
      await until(() => hostPidsWith(`${marker}-child`).length > 0);
      await killNow(first.cp);
      const before = [...pids(), ...hostPidsWith(`${marker}-child`)];
      expect(pids().length).toBeGreaterThanOrEqual(1); // the box's main process (and bwrap's)
      const all = () => [...pids(), ...hostPidsWith(`${marker}-child`)];
      const other = await openKit({ isolation: isolation as BoxIsolation });
      await other.close();
      expect(all()).toEqual(before);

      const second = await run('adopt');
      const adopted = JSON.parse(second.said) as {
        found: { sessionId: string; processes: string }[];
        exec: Record<string, string>;
        status: Record<string, { status: string }>;
      };
      expect(adopted.found).toEqual([expect.objectContaining({ sessionId, processes: 'running' })]);
      expect(adopted.exec[sessionId]).toBe('in\n');
      expect(adopted.status[sessionId].status).toBe('frozen');
      await killNow(second.cp);
      expect(all()).toEqual(before);

      const third = await run('report');
      const reported = JSON.parse(third.said) as { found: unknown[] };
      expect(reported.found).toEqual([expect.objectContaining({ sessionId, processes: 'frozen' })]);
      expect(all()).toEqual(before);

      // A reboot: every process of the box gone while no control plane runs.
      while (all().length > 0) {
        all().forEach(kill);
        await new Promise((r) => setTimeout(r, 10));
      }
      const next = await openKit({ isolation: isolation as BoxIsolation, dataDir });
      try {
        expect(next.driver.found()).toEqual([
          expect.objectContaining({ sessionId, processes: 'lost' }),
        ]);
        expect(next.driver.info(sessionId)).toBeNull();
        expect(existsSync(path.join(dataDir, sessionId, 'workspace', 'started'))).toBe(true);
      } finally {
        await next.driver.shutdownAll();
      }
    } finally {
      for (const cp of started) await killNow(cp);
      hostPidsWith(marker).forEach(kill);
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
  it("'auto' probes once and picks bubblewrap, the cgroup v2 freezer and cgroup limits on this host", async () => {
    const kit = await openKit();
    try {
      expect([kit.driver.isolation, kit.driver.freezer]).toEqual(['bubblewrap', 'cgroup-v2']);
      // This host is hybrid: the unified tree freezes but has no controllers, v1 limits.
      expect(kit.logs).toEqual([
        `boxes: bubblewrap isolation (root in a box is host uid 524288), cgroup-v2 freezer, ${kit.driver.limits} cpu and memory limits`,
      ]);
      expect(kit.driver.limits).toMatch(/^cgroup-v[12]$/);
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
