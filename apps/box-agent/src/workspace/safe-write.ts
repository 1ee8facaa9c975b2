import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export class OutsideWorkspaceError extends Error {}

export function assertInside(
  root: string,
  candidate: string,
  what: string,
  rootItself = false,
): void {
  const rel = path.relative(root, candidate);
  if ((rel === '' && !rootItself) || rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new OutsideWorkspaceError(`${what} resolves outside the workspace (${candidate})`);
  }
}

/**
 * Creates each folder between the workspace and the file, refusing symlinks and non-folders on
 * the way: the agent owns the workspace and could plant `.sessionboxer -> /etc`, and the daemon
 * must never write through it.
 */
export async function ensureFolders(root: string, relDir: string): Promise<string> {
  let current = root;
  for (const part of relDir.split(path.sep).filter((p) => p !== '' && p !== '.')) {
    current = path.join(current, part);
    const stat = await fs.lstat(current).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
    if (!stat) await fs.mkdir(current, { mode: 0o755 });
    else if (!stat.isDirectory()) {
      throw new OutsideWorkspaceError(`${current} is not a plain folder (a symlink or a file)`);
    }
  }
  return current;
}

/**
 * Writes `relPath` (inside `workspace`) so that a reader sees the old or the new content, never
 * a mix: a fresh temp file in the same folder, fsync, then rename over the target. The rename
 * replaces a symlink at the target instead of following it.
 */
export async function writeFileAtomic(
  workspace: string,
  relPath: string,
  content: string,
  mode = 0o644,
): Promise<string> {
  const root = await fs.realpath(workspace);
  const target = path.resolve(root, relPath);
  assertInside(root, target, relPath);
  const dir = await ensureFolders(root, path.relative(root, path.dirname(target)));
  assertInside(root, await fs.realpath(dir), path.dirname(relPath), true);
  const temp = path.join(dir, `.${path.basename(target)}.${randomUUID()}.tmp`);
  try {
    const handle = await fs.open(temp, 'wx', mode);
    try {
      await handle.writeFile(content, 'utf8');
      // The umask may have narrowed the mode given to open.
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
  } catch (e) {
    await fs.rm(temp, { force: true });
    throw e;
  }
  return target;
}

export function prettyJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
