import { readFile, readdir, rmdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { removeEmptyGroup, waitFor } from './box-control';

/**
 * How a box's cpu and memory are capped: the port, and the pieces both cgroup adapters share
 * (cgroup-v2-limits.ts: memory.max, memory.swap.max, cpu.max; cgroup-v1-limits.ts:
 * memory.limit_in_bytes, memory.memsw.limit_in_bytes, cpu.cfs_quota_us). Chosen by probing
 * when the driver opens (choose-limiter.ts); `none` when neither works, logged, and shown in
 * every box's `BoxInfo.limits`.
 */

export type LimitMechanism = 'cgroup-v2' | 'cgroup-v1' | 'none';

/** What a box may use: cores (fractions allowed) and bytes of memory (no swap beyond it). */
export interface BoxLimits {
  cpu: number;
  memoryBytes: number;
}

/** The limits a box has and whether they are enforced, with the OOM kills seen so far. */
export interface BoxLimitsInfo extends BoxLimits {
  mechanism: LimitMechanism;
  /** Processes of the box the kernel's OOM killer ended for passing memoryBytes. */
  oomKills: number;
}

export interface ResourceLimiter {
  readonly mechanism: LimitMechanism;
  /** Makes the box's groups with its limits; called before its first process is spawned. */
  prepare(sessionId: string, limits: BoxLimits): Promise<void>;
  /** Files a process writes its pid to, to be in the box's groups before it runs anything. */
  enterFiles(sessionId: string): string[];
  /** OOM kills in the box's groups (0 when unknown). */
  oomKills(sessionId: string): number;
  /** Removes the box's groups (killing what is still in them: the box is being ended). */
  release(sessionId: string): Promise<void>;
  /** Session ids of every box group the limiter keeps for this data dir. */
  groups(): Promise<string[]>;
  /** Removes the data dir's own folders when no box uses them. */
  tidy(): Promise<void>;
}

/** CFS period of both adapters: 100 ms, the kernel's default. */
export const CPU_PERIOD_US = 100_000;

export function cpuQuotaUs(cpu: number): number {
  return Math.max(1000, Math.round(cpu * CPU_PERIOD_US));
}

/**
 * Constant script (values are positional arguments: nothing is parsed by the shell): writes
 * its own pid into every file named before `--` (the freezer's group, the limit groups), then
 * execs the rest. The pid stays the same through exec, so bwrap (or nsenter) and all it starts
 * are members. One shell for all of them: each exec into a box pays for one.
 */
export function enterFilesArgv(files: string[]): string[] {
  const script =
    'p=$$; while [ "$1" != -- ]; do echo "$p" > "$1" || exit 125; shift; done; shift; exec "$@"';
  return ['/bin/sh', '-c', script, 'sessionboxer-limits', ...files, '--'];
}

/** The fallback: nothing is capped; BoxInfo.limits says `none`. */
export class NoLimits implements ResourceLimiter {
  readonly mechanism = 'none';
  prepare(): Promise<void> {
    return Promise.resolve();
  }
  enterFiles(): string[] {
    return [];
  }
  oomKills(): number {
    return 0;
  }
  release(): Promise<void> {
    return Promise.resolve();
  }
  groups(): Promise<string[]> {
    return Promise.resolve([]);
  }
  tidy(): Promise<void> {
    return Promise.resolve();
  }
}

/** Box ids of the `box-<id>` groups in a folder. */
export async function boxGroups(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.startsWith('box-')).map((n) => n.slice('box-'.length));
}

/** A group this old with no process in it is no box being started (that enters in ms). */
const EMPTY_FOR_MS = 60_000;

/**
 * Other data dirs' groups beside `ownDataDir` (in one cgroup hierarchy) are never killed, but
 * empty box groups a minute old are removed (their box ended while no control plane of theirs
 * ran, or the data dir is gone), then `alsoIn` tidies what else such a folder holds, then the
 * folder itself goes if empty. rmdir refuses a group that holds a process, so no box is touched.
 */
export async function removeEmptyOfOthers(
  ownDataDir: string,
  alsoIn: (otherDataDir: string) => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const top = path.dirname(ownDataDir);
  const others = (await readdir(top).catch(() => [] as string[])).filter(
    (n) => n.startsWith('data-') && path.join(top, n) !== ownDataDir,
  );
  for (const other of others) {
    const dir = path.join(top, other);
    for (const id of await boxGroups(dir)) {
      const group = path.join(dir, `box-${id}`);
      const age = await stat(group).then(
        (st) => Date.now() - st.mtimeMs,
        () => 0,
      );
      if (age > EMPTY_FOR_MS) await rmdir(group).catch(() => undefined);
    }
    await alsoIn(dir);
    await rmdir(dir).catch(() => undefined);
  }
}

/**
 * SIGKILLs whatever `listFile` names until it is empty, then removes the group (rmdir may race
 * the kernel's last exit bookkeeping: EBUSY, tried again). A missing group is fine.
 */
export async function removeGroup(dir: string, listFile: string): Promise<void> {
  await waitFor(async () => {
    const text = await readFile(path.join(dir, listFile), 'utf8').catch(() => '');
    const live = text.split('\n').filter((p) => p !== '');
    for (const pid of live) signal(Number(pid));
    return live.length === 0;
  }, `${dir} empty`);
  await removeEmptyGroup(dir, 100);
}

/** `key value` lines (memory.events, memory.oom_control) as numbers. */
export function keyedCount(text: string, key: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${key} `));
  return line ? Number(line.slice(key.length + 1)) || 0 : 0;
}

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
