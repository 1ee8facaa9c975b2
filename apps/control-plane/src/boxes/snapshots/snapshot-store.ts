import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ID = /^[0-9a-f-]{36}$/;

/**
 * Snapshot files: a copy of a box's workspace per snapshot, beside the workspace in the box's
 * folder (never inside it, so the agent cannot read or alter its snapshots). `cp -a
 * --reflink=auto` shares blocks where the file system allows (and keeps the files' owner, the
 * box's host uid); commands run as argv arrays.
 */
export class SnapshotStore {
  constructor(
    private readonly boxRoot: (sessionId: string) => { root: string; workspace: string },
  ) {}

  /** Copies the workspace into the snapshot's folder (again from scratch if one was half-made). */
  async take(sessionId: string, snapshotId: string): Promise<{ sizeBytes: number }> {
    const { workspace } = this.boxRoot(sessionId);
    const dir = this.dir(sessionId, snapshotId);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    await run('cp', ['-a', '--reflink=auto', '--', `${workspace}/.`, dir]);
    await disarm(dir);
    const { stdout } = await run('du', ['-sb', '--', dir]);
    return { sizeBytes: Number.parseInt(stdout, 10) || 0 };
  }

  exists(sessionId: string, snapshotId: string): boolean {
    return fs.existsSync(this.dir(sessionId, snapshotId));
  }

  /** Puts the snapshot's files back as the workspace (the box should be frozen meanwhile). */
  async restore(sessionId: string, snapshotId: string): Promise<void> {
    const { workspace } = this.boxRoot(sessionId);
    const dir = this.dir(sessionId, snapshotId);
    if (!fs.existsSync(dir)) throw new Error(`snapshot ${snapshotId} has no files at ${dir}`);
    for (const entry of fs.readdirSync(workspace)) {
      fs.rmSync(path.join(workspace, entry), { recursive: true, force: true });
    }
    await run('cp', ['-a', '--reflink=auto', '--', `${dir}/.`, workspace]);
    await disarm(workspace); // a snapshot taken before snapshots were disarmed
  }

  /** Copies a snapshot's files into another (new) session's workspace: a fork's files. */
  async copyInto(sessionId: string, snapshotId: string, workspace: string): Promise<void> {
    const dir = this.dir(sessionId, snapshotId);
    if (!fs.existsSync(dir)) throw new Error(`snapshot ${snapshotId} has no files at ${dir}`);
    fs.mkdirSync(workspace, { recursive: true });
    await run('cp', ['-a', '--reflink=auto', '--', `${dir}/.`, workspace]);
    await disarm(workspace);
  }

  private dir(sessionId: string, snapshotId: string): string {
    if (!ID.test(snapshotId)) throw new Error(`bad snapshot id ${JSON.stringify(snapshotId)}`);
    return path.join(this.boxRoot(sessionId).root, 'snapshots', snapshotId);
  }
}

/**
 * A box may plant a setuid or setgid program or a device node in its workspace; copies made
 * by the control plane (snapshots, reverts, forks) carry neither: device nodes are dropped,
 * set-id bits cleared. Links are never followed (`-xdev`, and chmod skips them).
 */
async function disarm(dir: string): Promise<void> {
  await run('find', [dir, '-xdev', '(', '-type', 'b', '-o', '-type', 'c', ')', '-delete']);
  const setId = [dir, '-xdev', '!', '-type', 'l', '-perm', '/6000'];
  await run('find', [...setId, '-exec', 'chmod', 'ug-s', '--', '{}', '+']);
}
