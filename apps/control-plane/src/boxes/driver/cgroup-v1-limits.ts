import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { access, mkdir, rmdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import {
  type BoxLimits,
  CPU_PERIOD_US,
  type ResourceLimiter,
  boxGroups,
  cpuQuotaUs,
  keyedCount,
  removeEmptyOfOthers,
  removeGroup,
} from './resource-limits';

/**
 * cgroup v1 (a hybrid host: the unified tree has no controllers): one group per box in the
 * memory hierarchy (memory.limit_in_bytes, and memory.memsw.limit_in_bytes set to the same so
 * swap adds nothing, where swap accounting exists) and one in the cpu hierarchy
 * (cpu.cfs_quota_us over a 100 ms cpu.cfs_period_us), each at
 * `<mount>/sessionboxer/<data dir tag>/box-<id>`, outside the control plane's own groups so a
 * box keeps them when the control plane goes.
 */
export class CgroupV1Limits implements ResourceLimiter {
  readonly mechanism = 'cgroup-v1';

  private constructor(
    private readonly memoryRoot: string,
    private readonly cpuRoot: string,
  ) {}

  /** Usable when a group can be made with a memory limit and a cpu quota under both roots. */
  static async probe(
    dataTag: string,
    mounts = '/proc/self/mounts',
  ): Promise<CgroupV1Limits | null> {
    const memory = findV1Mount('memory', mounts);
    const cpu = findV1Mount('cpu', mounts);
    if (!memory || !cpu) return null;
    const limits = new CgroupV1Limits(
      path.join(memory, 'sessionboxer', dataTag),
      path.join(cpu, 'sessionboxer', dataTag),
    );
    const id = `probe-${randomUUID().slice(0, 8)}`;
    try {
      await limits.write(id, { cpu: 1, memoryBytes: 64 * 1024 * 1024 });
      return limits;
    } catch {
      return null;
    } finally {
      await rmdir(path.join(limits.memoryRoot, `box-${id}`)).catch(() => undefined);
      await rmdir(path.join(limits.cpuRoot, `box-${id}`)).catch(() => undefined);
    }
  }

  memoryDir(sessionId: string): string {
    return path.join(this.memoryRoot, `box-${sessionId}`);
  }

  cpuDir(sessionId: string): string {
    return path.join(this.cpuRoot, `box-${sessionId}`);
  }

  async prepare(sessionId: string, limits: BoxLimits): Promise<void> {
    // A group left by an earlier failed start of this session must not keep old processes.
    await this.release(sessionId);
    await this.write(sessionId, limits);
  }

  private async write(sessionId: string, limits: BoxLimits): Promise<void> {
    const mem = this.memoryDir(sessionId);
    const cpu = this.cpuDir(sessionId);
    await mkdir(mem, { recursive: true });
    await mkdir(cpu, { recursive: true });
    // memsw must never be below the memory limit: memory first (both start unlimited).
    await writeFile(path.join(mem, 'memory.limit_in_bytes'), String(limits.memoryBytes));
    const memsw = path.join(mem, 'memory.memsw.limit_in_bytes');
    if (await exists(memsw)) await writeFile(memsw, String(limits.memoryBytes));
    await writeFile(path.join(cpu, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
    await writeFile(path.join(cpu, 'cpu.cfs_quota_us'), String(cpuQuotaUs(limits.cpu)));
  }

  enterFiles(sessionId: string): string[] {
    return [
      path.join(this.memoryDir(sessionId), 'cgroup.procs'),
      path.join(this.cpuDir(sessionId), 'cgroup.procs'),
    ];
  }

  oomKills(sessionId: string): number {
    try {
      const text = readFileSync(path.join(this.memoryDir(sessionId), 'memory.oom_control'), 'utf8');
      return keyedCount(text, 'oom_kill');
    } catch {
      return 0;
    }
  }

  async release(sessionId: string): Promise<void> {
    await removeGroup(this.memoryDir(sessionId), 'cgroup.procs');
    await removeGroup(this.cpuDir(sessionId), 'cgroup.procs');
  }

  async groups(): Promise<string[]> {
    const ids = [...(await boxGroups(this.memoryRoot)), ...(await boxGroups(this.cpuRoot))];
    return [...new Set(ids)];
  }

  async tidy(): Promise<void> {
    await rmdir(this.memoryRoot).catch(() => undefined);
    await rmdir(this.cpuRoot).catch(() => undefined);
  }

  /** Empty groups other data dirs left, in both hierarchies (resource-limits.ts). */
  async removeEmptyOfOthers(): Promise<void> {
    await removeEmptyOfOthers(this.memoryRoot);
    await removeEmptyOfOthers(this.cpuRoot);
  }
}

/** Mount point of the v1 hierarchy that has `controller` (`cpu` matches `cpu,cpuacct`). */
export function findV1Mount(controller: string, mounts = '/proc/self/mounts'): string | null {
  let text: string;
  try {
    text = readFileSync(mounts, 'utf8');
  } catch {
    return null;
  }
  for (const line of text.split('\n')) {
    const [, mountPoint, fsType, options] = line.split(' ');
    if (fsType !== 'cgroup' || !mountPoint || !options) continue;
    if (options.split(',').includes(controller)) return mountPoint.replace(/\\040/g, ' ');
  }
  return null;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
