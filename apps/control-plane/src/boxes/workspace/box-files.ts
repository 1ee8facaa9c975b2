import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { BOX_PATHS } from '@sessionboxer/mcp-adapters';

const PREFIX = `${BOX_PATHS.workspace}/`;
const MAX_PATH = 4096;

/** A file of a box's workspace, opened: read from the handle, never by its path again. */
export interface OpenBoxFile {
  handle: fs.FileHandle;
  size: number;
  mtime: Date;
  /** Its name, for the content type. */
  name: string;
}

function refuse(message: string): never {
  throw new DomainError(ErrorCode.ValidationFailed, message);
}

/**
 * Opens the host file a box path (`/workspace/…`) names, in the box's workspace folder.
 * Refused (400): anything but a plain path under /workspace/, a `..` segment or a NUL. A file
 * that is outside the workspace once opened answers exactly as a missing one (404, same
 * message), so a symlink cannot tell an agent's person which host paths exist. The check is
 * of what the kernel opened (/proc/self/fd), so an agent swapping a folder for a symlink
 * between a check and the read cannot make it serve a file of the host.
 */
export async function openBoxFile(workspace: string, boxPath: unknown): Promise<OpenBoxFile> {
  const segments = boxSegments(boxPath, 'a file, such as /workspace/recording.mp4');
  if (segments.every((s) => s === '' || s === '.')) refuse('path: names the workspace, not a file');
  const root = await workspaceRoot(workspace);
  const missing = `no file ${String(boxPath)} in the box`;
  const handle = await open(path.join(root, ...segments), missing);
  try {
    const opened = await fs.readlink(`/proc/self/fd/${handle.fd}`);
    if (!opened.startsWith(root + path.sep)) throw new DomainError(ErrorCode.NotFound, missing);
    const stat = await handle.stat();
    if (!stat.isFile())
      throw new DomainError(ErrorCode.NotFound, `${String(boxPath)} is not a file`);
    return { handle, size: stat.size, mtime: stat.mtime, name: path.basename(opened) };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/**
 * The segments under /workspace/ of a box path, checked: refused (400) for anything but a
 * plain path there (`/workspace` itself is the empty list), a `..` segment or a NUL.
 */
export function boxSegments(boxPath: unknown, what: string): string[] {
  if (typeof boxPath !== 'string' || boxPath.length === 0) refuse(`path: the box path of ${what}`);
  if (boxPath.length > MAX_PATH) refuse(`path: at most ${MAX_PATH} characters`);
  if (boxPath.includes('\0')) refuse('path: must not contain NUL');
  if (boxPath === BOX_PATHS.workspace) return [];
  if (!boxPath.startsWith(PREFIX)) refuse(`path: must be under ${PREFIX}`);
  const segments = boxPath.slice(PREFIX.length).split('/');
  if (segments.includes('..')) refuse('path: must not contain ".." segments');
  return segments;
}

/** The host folder of a box's workspace, its symlinks resolved. */
export function workspaceRoot(workspace: string): Promise<string> {
  return real(workspace, `this session's box has no workspace`);
}

/** Read-only and non-blocking, so a FIFO an agent left there cannot hang the request. */
async function open(p: string, missing: string): Promise<fs.FileHandle> {
  try {
    return await fs.open(p, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (e) {
    throw mapped(e, missing);
  }
}

/** The path with every symlink resolved; NotFound when it (or a folder on the way) is missing. */
async function real(p: string, missing: string): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch (e) {
    throw mapped(e, missing);
  }
}

export function mapped(e: unknown, missing: string): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new DomainError(ErrorCode.NotFound, missing);
  if (code === 'ELOOP')
    return new DomainError(ErrorCode.ValidationFailed, 'path: too many levels of symbolic links');
  if (code === 'EACCES') return new DomainError(ErrorCode.Forbidden, `${missing}: not readable`);
  if (code === 'EISDIR') return new DomainError(ErrorCode.NotFound, `${missing} (a folder)`);
  return e;
}
