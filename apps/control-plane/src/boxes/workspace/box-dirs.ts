import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { BoxDirEntry, BoxDirListing } from '@sessionboxer/contracts';
import { boxSegments, mapped, workspaceRoot } from './box-files';

/** At most this many entries answer (the rest are counted in `more`). */
export const DIR_ENTRIES_MAX = 1000;

function kindOf(d: import('node:fs').Dirent): BoxDirEntry['kind'] {
  if (d.isDirectory()) return 'dir';
  if (d.isFile()) return 'file';
  if (d.isSymbolicLink()) return 'link';
  return 'other';
}

/**
 * A folder of a box's workspace (the Files pane): names, kinds and sizes, folders first, by
 * name. The folder is opened first and what the kernel opened is checked to be inside the
 * workspace (/proc/self/fd), then read through that handle: a symlink an agent planted (or
 * swapped in meanwhile) cannot list a host folder; outside reads as missing. Symlinks inside
 * are listed as links, never followed.
 */
export async function listBoxDir(workspace: string, boxPath: unknown): Promise<BoxDirListing> {
  const segments = boxSegments(boxPath, 'a folder, such as /workspace/src');
  const root = await workspaceRoot(workspace);
  const missing = `no folder ${String(boxPath)} in the box`;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(
      path.join(root, ...segments),
      fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NONBLOCK,
    );
  } catch (e) {
    throw mapped(e, missing);
  }
  try {
    const fd = `/proc/self/fd/${handle.fd}`;
    const opened = await fs.readlink(fd);
    if (opened !== root && !opened.startsWith(root + path.sep))
      throw new DomainError(ErrorCode.NotFound, missing);
    const dirents = await fs.readdir(fd, { withFileTypes: true });
    dirents.sort((a, b) => {
      const dirs = Number(b.isDirectory()) - Number(a.isDirectory());
      return dirs !== 0 ? dirs : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    });
    const shown = dirents.slice(0, DIR_ENTRIES_MAX);
    const entries = await Promise.all(
      shown.map(async (d): Promise<BoxDirEntry> => {
        const kind = kindOf(d);
        if (kind !== 'file') return { name: d.name, kind, size: null };
        const st = await fs.lstat(`${fd}/${d.name}`).catch(() => null);
        return { name: d.name, kind, size: st?.size ?? null };
      }),
    );
    const rel = path.relative(root, opened);
    const shownPath = rel === '' ? '/workspace' : `/workspace/${rel.split(path.sep).join('/')}`;
    return { path: shownPath, entries, more: dirents.length - shown.length };
  } finally {
    await handle.close();
  }
}
