import { randomUUID } from 'node:crypto';
import { access, mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { type BoxControl, type BoxProcesses, removeEmptyGroup, waitFor } from './box-control';
import { procStat } from './host';
import { removeEmptyOfOthers } from './resource-limits';

/**
 * One cgroup v2 group per box at `<parent>/box-<sessionId>`, `<parent>` being the data dir's
 * own folder (see chooseControl), never under the control plane's own group: a box outlives
 * the control-plane process, and the next one of the same data dir adopts it. The box's first process
 * enters its group before exec (enterFiles, enterFilesArgv), so every descendant is a member, however it
 * double-forks. Freezing a group stops all of them at once; cgroup.kill kills all of them.
 */
export class CgroupControl implements BoxControl {
  readonly mechanism = 'cgroup-v2';

  private constructor(readonly root: string) {}

  /** A usable control under `parent`, or null (no cgroup2, read-only, no freezer...). */
  static async probe(parent: string): Promise<CgroupControl | null> {
    const dir = path.join(parent, `probe-${randomUUID().slice(0, 8)}`);
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'cgroup.freeze'), '1');
      const events = await readEvents(dir);
      return events.frozen === '1' ? new CgroupControl(parent) : null;
    } catch {
      return null;
    } finally {
      await rmdir(dir).catch(() => undefined);
    }
  }

  /**
   * Kills what control planes of the layout before boxes outlived them left in their
   * `cp-<pid>-<start>` groups (dead ones only), and removes such empty folders of other data
   * dirs. Returns how many of this data dir's were swept.
   */
  async sweepStale(): Promise<number> {
    const stale = (await readdir(this.root)).filter((n) => isOwnerName(n) && !ownerAlive(n));
    for (const owner of stale) await this.sweepOwner(path.join(this.root, owner));
    await removeEmptyOfOthers(this.root, removeDeadOwners);
    return stale.length;
  }

  /** Sessions whose group exists under this data dir's folder (adopted or not). */
  async groups(): Promise<string[]> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    return names.filter((n) => n.startsWith('box-')).map((n) => n.slice('box-'.length));
  }

  async found(box: BoxProcesses): Promise<'running' | 'frozen' | null> {
    const events = await readEvents(this.dir(box.sessionId)).catch(() => null);
    if (events?.populated !== '1') return null;
    return events.frozen === '1' ? 'frozen' : 'running';
  }

  /** Another driver may sweep the same owner at the same time: whatever is gone is fine. */
  private async sweepOwner(ownerDir: string): Promise<void> {
    const entries = await readdir(ownerDir).catch(() => [] as string[]);
    for (const box of entries.filter((n) => n.startsWith('box-'))) {
      await this.killGroup(path.join(ownerDir, box)).catch(() => undefined);
      await rmdir(path.join(ownerDir, box)).catch(() => undefined);
    }
    await rmdir(ownerDir).catch(() => undefined);
  }

  dir(sessionId: string): string {
    return path.join(this.root, `box-${sessionId}`);
  }

  async prepare(sessionId: string): Promise<void> {
    const dir = this.dir(sessionId);
    await mkdir(dir, { recursive: true });
    // A group left by an earlier failed start of this session must not keep old processes.
    await this.killGroup(dir);
    await writeFile(path.join(dir, 'cgroup.freeze'), '0');
  }

  enterFiles(sessionId: string): string[] {
    return [path.join(this.dir(sessionId), 'cgroup.procs')];
  }

  async freeze(box: BoxProcesses): Promise<void> {
    await this.setFrozen(box.sessionId, '1');
  }

  async thaw(box: BoxProcesses): Promise<void> {
    await this.setFrozen(box.sessionId, '0');
  }

  async kill(box: BoxProcesses): Promise<void> {
    await this.killGroup(this.dir(box.sessionId));
  }

  async release(sessionId: string): Promise<void> {
    const dir = this.dir(sessionId);
    // Usually empty already; not after a launch that failed half-way.
    await this.killGroup(dir).catch(() => undefined);
    await removeEmptyGroup(dir, 50);
  }

  async tidy(): Promise<void> {
    await rmdir(this.root).catch(() => undefined); // the data dir's, if it holds no box
  }

  private async setFrozen(sessionId: string, value: '0' | '1'): Promise<void> {
    const dir = this.dir(sessionId);
    await writeFile(path.join(dir, 'cgroup.freeze'), value);
    await waitFor(async () => (await readEvents(dir)).frozen === value, `${dir} frozen ${value}`);
  }

  private async killGroup(dir: string): Promise<void> {
    if (await exists(path.join(dir, 'cgroup.kill'))) {
      await writeFile(path.join(dir, 'cgroup.kill'), '1');
    } else {
      await killListed(dir); // kernels before 5.14 have no cgroup.kill
    }
    await waitFor(async () => (await readEvents(dir)).populated === '0', `${dir} empty`);
  }
}

const OWNER = /^cp-(\d+)-(\d+)$/;

/** The folders of dead control planes of the older layout (cp-<pid>-<start>), emptied. */
async function removeDeadOwners(dir: string): Promise<void> {
  const owners = await readdir(dir).catch(() => [] as string[]);
  for (const owner of owners.filter((n) => isOwnerName(n) && !ownerAlive(n))) {
    const boxes = await readdir(path.join(dir, owner)).catch(() => [] as string[]);
    for (const box of boxes.filter((n) => n.startsWith('box-'))) {
      await rmdir(path.join(dir, owner, box)).catch(() => undefined);
    }
    await rmdir(path.join(dir, owner)).catch(() => undefined);
  }
}

function isOwnerName(name: string): boolean {
  return OWNER.test(name);
}

/** The same process still runs (same pid and start time: a reused pid is not the owner). */
function ownerAlive(name: string): boolean {
  const [, pid, start] = OWNER.exec(name) as RegExpExecArray;
  const stat = procStat(Number(pid));
  return stat !== null && stat.startTime === start && stat.state !== 'Z' && stat.state !== 'X';
}

async function readEvents(dir: string): Promise<Record<string, string>> {
  const text = await readFile(path.join(dir, 'cgroup.events'), 'utf8');
  return Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((l) => l.split(' ') as [string, string]),
  );
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** SIGKILL every listed member until none is left (new forks show up in the next read). */
async function killListed(dir: string): Promise<void> {
  await waitFor(async () => {
    const pids = (await readFile(path.join(dir, 'cgroup.procs'), 'utf8')).split('\n');
    const live = pids.filter((p) => p !== '').map(Number);
    for (const pid of live) signal(pid, 'SIGKILL');
    return live.length === 0;
  }, `${dir} killed`);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}
