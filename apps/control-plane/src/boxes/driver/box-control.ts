import { rmdir } from 'node:fs/promises';

/**
 * How a box's processes are stopped, resumed and killed as one group. Two mechanisms: the
 * cgroup v2 freezer (every descendant inherits the box's cgroup, whatever it forks or setsid's)
 * and plain signals to the processes found in /proc (the fallback).
 */

export type ControlMechanism = 'cgroup-v2' | 'signals';

/** What a mechanism knows of a running box. */
export interface BoxProcesses {
  sessionId: string;
  /** Host pid the driver spawned (bwrap's outer process, or the plain command). */
  mainPid: number;
  /** Host pid of the box's pid-namespace init (bubblewrap only). */
  nsInitPid: number | null;
  /** `/proc/<pid>/ns/pid` link of the box (bubblewrap only): every member shares it. */
  pidNamespace: string | null;
  /** Host pids of processes started with exec (plain processes only; bwrap execs join the ns). */
  execPids(): number[];
}

export interface BoxControl {
  readonly mechanism: ControlMechanism;
  /** Called before the box's first process is spawned. */
  prepare(sessionId: string): Promise<void>;
  /** Files a process writes its pid to, to enrol in the box before it runs anything (may be none). */
  enterFiles(sessionId: string): string[];
  /** Resolves when no process of the box runs any more. */
  freeze(box: BoxProcesses): Promise<void>;
  thaw(box: BoxProcesses): Promise<void>;
  /** Resolves when every process of the box is gone. */
  kill(box: BoxProcesses): Promise<void>;
  /** Drops what prepare made; the box has no process left. */
  release(sessionId: string): Promise<void>;
  /** Drops what the control itself made, if no box uses it any more. */
  tidy(): Promise<void>;
  /** A box an earlier control plane left: whether its processes run, are frozen, or are gone. */
  found(box: BoxProcesses): Promise<'running' | 'frozen' | null>;
  /** Session ids of every box group the mechanism keeps (none for signals). */
  groups(): Promise<string[]>;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Removes an empty cgroup folder, retrying briefly: rmdir can race the kernel's last exit
 * bookkeeping (EBUSY). A folder already gone is fine.
 */
export async function removeEmptyGroup(dir: string, attempts: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await rmdir(dir);
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (attempt >= attempts) throw e;
      await sleep(10);
    }
  }
}

/** Polls `check` every `everyMs` until it holds; throws `what` after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5000,
  everyMs = 2,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(everyMs);
  }
}
