import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import {
  type BoxLimits,
  CPU_PERIOD_US,
  type ResourceLimiter,
  boxGroups,
  cpuQuotaUs,
  keyedCount,
  removeGroup,
} from './resource-limits';

const CONTROLLERS = ['memory', 'cpu'];

/**
 * cgroup v2: the limits go into the box's own group, the same `<root>/box-<id>` the freezer
 * uses (cgroup-control.ts; a process is in one v2 group only): memory.max, memory.swap.max 0
 * (swap adds nothing) and cpu.max `<quota> 100000`. The memory and cpu controllers are
 * enabled in `cgroup.subtree_control` from the mount down to the data dir's folder where they
 * are not yet (those folders hold no process, as v2 requires).
 */
export class CgroupV2Limits implements ResourceLimiter {
  readonly mechanism = 'cgroup-v2';

  private constructor(private readonly root: string) {}

  /** Usable when a group under `root` (inside `mount`) gets memory.max and cpu.max. */
  static async probe(mount: string, root: string): Promise<CgroupV2Limits | null> {
    const limits = new CgroupV2Limits(root);
    const id = `probe-${randomUUID().slice(0, 8)}`;
    try {
      await mkdir(root, { recursive: true });
      for (const dir of chain(mount, root)) await enableControllers(dir);
      await limits.prepare(id, { cpu: 1, memoryBytes: 64 * 1024 * 1024 });
      return limits;
    } catch {
      return null;
    } finally {
      await rmdir(limits.dir(id)).catch(() => undefined);
    }
  }

  dir(sessionId: string): string {
    return path.join(this.root, `box-${sessionId}`);
  }

  async prepare(sessionId: string, limits: BoxLimits): Promise<void> {
    const dir = this.dir(sessionId);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'memory.max'), String(limits.memoryBytes));
    const swap = path.join(dir, 'memory.swap.max');
    if (await exists(swap)) await writeFile(swap, '0');
    await writeFile(path.join(dir, 'cpu.max'), `${cpuQuotaUs(limits.cpu)} ${CPU_PERIOD_US}`);
  }

  /** The freezer's own group when it is cgroup v2 too: written twice by one shell, harmless. */
  enterFiles(sessionId: string): string[] {
    return [path.join(this.dir(sessionId), 'cgroup.procs')];
  }

  oomKills(sessionId: string): number {
    try {
      return keyedCount(
        readFileSync(path.join(this.dir(sessionId), 'memory.events'), 'utf8'),
        'oom_kill',
      );
    } catch {
      return 0;
    }
  }

  async release(sessionId: string): Promise<void> {
    await removeGroup(this.dir(sessionId), 'cgroup.procs');
  }

  groups(): Promise<string[]> {
    return boxGroups(this.root);
  }

  async tidy(): Promise<void> {
    await rmdir(this.root).catch(() => undefined);
  }
}

/** The folders from `mount` down to `root`, each of whose children must see the controllers. */
function chain(mount: string, root: string): string[] {
  const rel = path.relative(mount, root);
  if (rel.startsWith('..') || path.isAbsolute(rel))
    throw new Error(`${root} is not under ${mount}`);
  const dirs = [mount];
  for (const part of rel.split(path.sep).filter((p) => p !== '')) {
    dirs.push(path.join(dirs[dirs.length - 1], part));
  }
  return dirs;
}

async function enableControllers(dir: string): Promise<void> {
  const enabled = (await readFile(path.join(dir, 'cgroup.subtree_control'), 'utf8')).split(/\s+/);
  const missing = CONTROLLERS.filter((c) => !enabled.includes(c));
  if (missing.length === 0) return;
  await writeFile(path.join(dir, 'cgroup.subtree_control'), missing.map((c) => `+${c}`).join(' '));
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
