import { execFile } from 'node:child_process';
import { lstat, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { ErrorCode } from '@sessionboxer/domain/kernel';
import { refusal } from '@sessionboxer/domain/sandbox';

/**
 * A sandbox's disk_gib as a quota on its workspace folder (what /root and /workspace are in
 * the box; /tmp is a tmpfs, counted in memory instead). Not a file system quota: a file
 * write through the API is refused before it would pass the quota, and usage is measured
 * after every command, which can still write past it (the answer then says so, and every
 * further file write is refused until files are removed). docs/SANDBOXES.md says the same.
 */

export interface Quota {
  /** The host folder seen as /workspace in the box. */
  workspaceDir: string;
  quotaBytes: number;
  /** The size's figure, for messages. */
  diskGib: number;
}

const BLOCK = 4096;

/** Bytes the folder takes on disk (blocks, hard links once, one file system, links not followed). */
export function workspaceUsage(dir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    // du exits 1 when a file vanished while it walked (a command still running): the total stands.
    execFile('du', ['-s', '-B1', '-x', '--', dir], (error, stdout, stderr) => {
      const total = Number(stdout.split('\t')[0]);
      if (Number.isSafeInteger(total) && stdout !== '') resolve(total);
      else reject(new Error(`cannot measure ${dir}: ${error?.message ?? stderr}`));
    });
  });
}

/** The host file a box path names when it lies in the workspace; null elsewhere (/tmp). */
export function workspaceFile(workspaceDir: string, boxPath: string): string | null {
  const p = path.posix.normalize(boxPath);
  for (const [prefix, under] of [
    ['/workspace/', ''],
    ['/root/', 'root'],
  ] as const) {
    if (p.startsWith(prefix)) return path.join(workspaceDir, under, p.slice(prefix.length));
  }
  return null;
}

/**
 * The blocks a file being replaced gives back: its own (a link is not followed: it is replaced,
 * not its target), and only when its folder really is in the workspace (a link the box made
 * on the way never makes the host count a file of its own).
 */
async function replacedBlocks(workspaceDir: string, file: string): Promise<number> {
  try {
    const [root, dir] = await Promise.all([realpath(workspaceDir), realpath(path.dirname(file))]);
    if (dir !== root && !dir.startsWith(root + path.sep)) return 0;
    const st = await lstat(path.join(dir, path.basename(file)));
    return st.isFile() ? st.blocks * 512 : 0;
  } catch {
    return 0;
  }
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** Refuses (limit_reached, nothing written) a write of `bytes` at `boxPath` that would pass the quota. */
export async function assertRoom(q: Quota, boxPath: string, bytes: number): Promise<void> {
  const file = workspaceFile(q.workspaceDir, boxPath);
  if (file === null) return;
  const used = await workspaceUsage(q.workspaceDir);
  const replaced = await replacedBlocks(q.workspaceDir, file);
  const after = used - replaced + Math.ceil(bytes / BLOCK) * BLOCK;
  if (after <= q.quotaBytes) return;
  throw refusal(
    'limit_reached',
    ErrorCode.LimitReached,
    `writing ${bytes} bytes to ${boxPath} would pass the sandbox's disk quota (disk_gib ${q.diskGib}: ${mb(q.quotaBytes)}): ${mb(used)} are used; remove files or use a larger size`,
    { field: 'content', used_bytes: used, quota_bytes: q.quotaBytes },
  );
}

/** After a command: a line saying the workspace is past its quota, or null when it is not. */
export async function overQuota(q: Quota): Promise<string | null> {
  const used = await workspaceUsage(q.workspaceDir).catch(() => 0);
  if (used <= q.quotaBytes) return null;
  return `sessionboxer: the sandbox uses ${mb(used)}, past its disk quota (disk_gib ${q.diskGib}: ${mb(q.quotaBytes)}); file writes are refused until files are removed`;
}
