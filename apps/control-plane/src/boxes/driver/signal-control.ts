import { readlinkSync } from 'node:fs';
import { type BoxControl, type BoxProcesses, sleep, waitFor } from './box-control';
import { allPids, procStat } from './host';

/**
 * The fallback when no cgroup v2 freezer is usable: SIGSTOP / SIGCONT / SIGKILL to every
 * member found in /proc. A bubblewrap box's members are exactly the processes of its pid
 * namespace (setsid and double forks cannot leave it), and killing the namespace's init
 * kills them all. A plain-process box's members are the descendants of its main and exec'd
 * processes: a double-forked child reparented to init escapes, which is one more reason the
 * process fallback is not isolation.
 */
export class SignalControl implements BoxControl {
  readonly mechanism = 'signals';

  prepare(): Promise<void> {
    return Promise.resolve();
  }

  enterFiles(): string[] {
    return [];
  }

  /** Stops members in rounds, until a round finds none it had not stopped (forks race us). */
  async freeze(box: BoxProcesses): Promise<void> {
    const stopped = new Set<number>();
    for (let round = 0; round < 50; round++) {
      const fresh = members(box).filter((pid) => !stopped.has(pid));
      if (fresh.length === 0) return;
      for (const pid of fresh) {
        signal(pid, 'SIGSTOP');
        stopped.add(pid);
      }
      await sleep(1);
    }
  }

  thaw(box: BoxProcesses): Promise<void> {
    for (const pid of members(box)) signal(pid, 'SIGCONT');
    return Promise.resolve();
  }

  async kill(box: BoxProcesses): Promise<void> {
    if (box.nsInitPid !== null) signal(box.nsInitPid, 'SIGKILL');
    await waitFor(() => {
      const live = members(box);
      for (const pid of live) signal(pid, 'SIGKILL');
      return live.length === 0;
    }, `box ${box.sessionId} killed`);
  }

  release(): Promise<void> {
    return Promise.resolve();
  }

  tidy(): Promise<void> {
    return Promise.resolve();
  }

  /** Frozen when every member is stopped by a signal (state T). */
  found(box: BoxProcesses): Promise<'running' | 'frozen' | null> {
    const live = members(box);
    if (live.length === 0) return Promise.resolve(null);
    const stopped = live.every((pid) => procStat(pid)?.state === 'T');
    return Promise.resolve(stopped ? 'frozen' : 'running');
  }

  groups(): Promise<string[]> {
    return Promise.resolve([]);
  }
}

/** Live pids of the box, zombies excluded (they no longer run and cannot be signalled away). */
export function members(box: BoxProcesses): number[] {
  const pids =
    box.pidNamespace !== null
      ? allPids().filter((pid) => pidNamespaceOf(pid) === box.pidNamespace)
      : descendantsOf([box.mainPid, ...box.execPids()]);
  return pids.filter((pid) => !isZombie(pid));
}

function pidNamespaceOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return null;
  }
}

function descendantsOf(roots: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const ppid = procStat(pid)?.ppid;
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found = new Set<number>();
  const queue = roots.filter((pid) => procStat(pid) !== null);
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    if (found.has(pid)) continue;
    found.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return [...found];
}

function isZombie(pid: number): boolean {
  const state = procStat(pid)?.state;
  return state === undefined || state === 'Z' || state === 'X';
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}
