import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { findV1Mount } from '../cgroup-v1-limits';
import { dataDirTag } from '../controls';
import { findCgroup2Mount } from '../host';
import { type Kit, delay, lineCount, openKit, runIn, sh, until } from './box-test-kit';

/**
 * Real bubblewrap boxes with cpu and memory limits, on whatever this host has (cgroup v1
 * memory and cpu hierarchies on a hybrid host, or cgroup v2 controllers): the box's processes
 * and what exec starts are in its groups, the quota and the limit are written, a process
 * allocating past the limit is OOM-killed (and the box says so), freeze and thaw still work,
 * and nothing is left after destroy or when a driver opens after a half-started box.
 */
const MiB = 1024 * 1024;
const LIMITS = { cpu: 0.5, memoryBytes: 64 * MiB };

/** The box's group folders per controller (memory, cpu) on this host. */
function groupDirs(kit: Kit, sessionId: string): { memory: string; cpu: string } {
  const tag = dataDirTag(kit.dataDir);
  const box = `box-${sessionId}`;
  if (kit.driver.limits === 'cgroup-v2') {
    const dir = path.join(findCgroup2Mount() as string, 'sessionboxer', tag, box);
    return { memory: dir, cpu: dir };
  }
  return {
    memory: path.join(findV1Mount('memory') as string, 'sessionboxer', tag, box),
    cpu: path.join(findV1Mount('cpu') as string, 'sessionboxer', tag, box),
  };
}

/** The groups `/proc/<pid>/cgroup` names for the memory and cpu controllers. */
function groupsOf(pid: number): string[] {
  const lines = readFileSync(`/proc/${pid}/cgroup`, 'utf8').trim().split('\n');
  return lines
    .map((l) => l.split(':'))
    .filter(([, ctl]) => ctl === '' || ctl.split(',').some((c) => c === 'memory' || c === 'cpu'))
    .map(([, ctl, p]) => `${ctl}:${p}`);
}

describe('box cpu and memory limits', () => {
  let kit: Kit;

  beforeAll(async () => {
    kit = await openKit({ isolation: 'bubblewrap' });
  });
  afterAll(() => kit.close());

  it('are enforced with cgroups here, and the driver logs how', () => {
    expect(kit.driver.limits).toMatch(/^cgroup-v[12]$/);
    expect(kit.logs.join('\n')).toContain(`${kit.driver.limits} cpu and memory limits`);
  });

  it('puts the box and what exec starts in its groups, with the quota and limit written', async () => {
    const spec = { ...kit.spec(['/bin/sleep', 'infinity']), limits: LIMITS };
    const info = await kit.driver.create(spec);
    expect(info.limits).toEqual({ ...LIMITS, mechanism: kit.driver.limits, oomKills: 0 });
    const dirs = groupDirs(kit, spec.sessionId);
    if (kit.driver.limits === 'cgroup-v2') {
      expect(readFileSync(path.join(dirs.cpu, 'cpu.max'), 'utf8').trim()).toBe('50000 100000');
      expect(readFileSync(path.join(dirs.memory, 'memory.max'), 'utf8').trim()).toBe(`${64 * MiB}`);
    } else {
      expect(readFileSync(path.join(dirs.cpu, 'cpu.cfs_quota_us'), 'utf8').trim()).toBe('50000');
      expect(readFileSync(path.join(dirs.cpu, 'cpu.cfs_period_us'), 'utf8').trim()).toBe('100000');
      const limit = readFileSync(path.join(dirs.memory, 'memory.limit_in_bytes'), 'utf8');
      expect(limit.trim()).toBe(`${64 * MiB}`);
    }
    // The box's main process, and a process exec starts, each in the box's groups.
    const procs = (dir: string) =>
      readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
    expect(procs(dirs.memory)).toContain(info.pid);
    expect(procs(dirs.cpu)).toContain(info.pid);
    const marker = `/box-${spec.sessionId}`;
    expect(groupsOf(info.pid).every((g) => g.endsWith(marker))).toBe(true);
    const child = kit.driver.exec(spec.sessionId, ['/bin/sleep', '5']);
    await delay(100);
    expect(groupsOf(child.pid as number).every((g) => g.endsWith(marker))).toBe(true);
    child.kill('SIGKILL');
    await kit.driver.destroy(spec.sessionId);
    expect([existsSync(dirs.memory), existsSync(dirs.cpu)]).toEqual([false, false]);
  });

  it('OOM-kills a process allocating past the memory limit; the box goes on', async () => {
    const spec = { ...kit.spec(['/bin/sleep', 'infinity']), limits: LIMITS };
    await kit.driver.create(spec);
    const fits = await sh(
      kit.driver,
      spec.sessionId,
      'python3 -c "b = b\'x\' * (16 << 20)"; echo $?',
    );
    expect(fits.stdout.trim()).toBe('0');
    const hog = await runIn(kit.driver, spec.sessionId, [
      '/bin/sh',
      '-c',
      'python3 -c "b = b\'x\' * (256 << 20); print(len(b))"; echo "exit $?"',
    ]);
    expect(hog.stdout.trim()).toBe('exit 137'); // SIGKILL, nothing printed
    expect(kit.driver.info(spec.sessionId)?.limits?.oomKills).toBeGreaterThanOrEqual(1);
    expect(kit.driver.info(spec.sessionId)?.status).toBe('running');
    expect((await sh(kit.driver, spec.sessionId, 'echo alive')).stdout).toBe('alive\n');
    await kit.driver.destroy(spec.sessionId);
  });

  it('keeps freeze and thaw working on a limited box', async () => {
    const s0 = kit.spec([]);
    const loop = 'i=0; while :; do i=$((i+1)); echo $i >> /workspace/counter; sleep 0.02; done';
    const spec = { ...s0, command: ['/bin/sh', '-c', loop], limits: LIMITS };
    await kit.driver.create(spec);
    const counter = path.join(spec.workspaceDir, 'counter');
    await until(() => lineCount(counter) > 3);
    await kit.driver.freeze(spec.sessionId);
    await delay(50);
    const frozen = lineCount(counter);
    await delay(200);
    expect(lineCount(counter)).toBe(frozen);
    await kit.driver.thaw(spec.sessionId);
    await until(() => lineCount(counter) > frozen + 3);
    await kit.driver.destroy(spec.sessionId);
  });

  it("gives a box whose spec names none the driver's default (sessions' boxes)", async () => {
    const other = await openKit({
      isolation: 'bubblewrap',
      defaultLimits: { cpu: 2, memoryBytes: 256 * MiB },
    });
    try {
      const spec = other.spec(['/bin/sleep', 'infinity']);
      const info = await other.driver.create(spec);
      expect(info.limits).toMatchObject({ cpu: 2, memoryBytes: 256 * MiB });
      expect(groupsOf(info.pid).every((g) => g.endsWith(`/box-${spec.sessionId}`))).toBe(true);
      const unlimited = await kit.driver.create(kit.spec(['/bin/sleep', 'infinity']));
      expect(unlimited.limits).toBeUndefined();
      await kit.driver.destroy(unlimited.sessionId);
    } finally {
      await other.close();
    }
  });

  it('an adopted box keeps its groups and limits; its new driver removes them on destroy', async () => {
    const spec = { ...kit.spec(['/bin/sleep', 'infinity']), limits: LIMITS };
    const info = await kit.driver.create(spec);
    const dirs = groupDirs(kit, spec.sessionId);
    kit.driver.forget(spec.sessionId); // as an instance does when another takes its box over
    const next = await openKit({ isolation: 'bubblewrap', dataDir: kit.dataDir });
    try {
      expect(next.driver.found()).toContainEqual(
        expect.objectContaining({ sessionId: spec.sessionId, processes: 'running' }),
      );
      expect(next.driver.info(spec.sessionId)?.limits).toMatchObject(LIMITS);
      expect(groupsOf(info.pid).every((g) => g.endsWith(`/box-${spec.sessionId}`))).toBe(true);
      const child = next.driver.exec(spec.sessionId, ['/bin/sleep', '5']);
      await delay(100);
      expect(groupsOf(child.pid as number).every((g) => g.endsWith(`/box-${spec.sessionId}`))).toBe(
        true,
      );
      child.kill('SIGKILL');
      await next.driver.destroy(spec.sessionId);
      expect([existsSync(dirs.memory), existsSync(dirs.cpu)]).toEqual([false, false]);
    } finally {
      await next.driver.shutdownAll();
    }
  });

  it("removes a half-started box's limit groups, and kills their processes, when a driver opens", async () => {
    const sessionId = kit.spec([]).sessionId;
    const dirs = groupDirs(kit, sessionId);
    mkdirSync(dirs.memory, { recursive: true });
    mkdirSync(dirs.cpu, { recursive: true });
    const stray = spawn('/bin/sleep', ['1000'], { stdio: 'ignore' });
    const gone = new Promise((r) => stray.once('exit', r));
    writeFileSync(path.join(dirs.memory, 'cgroup.procs'), String(stray.pid));
    const next = await openKit({ isolation: 'bubblewrap', dataDir: kit.dataDir });
    try {
      await gone;
      expect(stray.signalCode).toBe('SIGKILL');
      expect([existsSync(dirs.memory), existsSync(dirs.cpu)]).toEqual([false, false]);
    } finally {
      stray.kill('SIGKILL');
      await next.driver.shutdownAll();
    }
  });
});
