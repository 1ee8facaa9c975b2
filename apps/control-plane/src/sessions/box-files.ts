import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { BOX_PATHS } from '@sessionboxer/mcp-adapters';

const PREFIX = `${BOX_PATHS.workspace}/`;
const MAX_PATH = 4096;

/** A file of a box's workspace on the host: its real folder, and the file's path within it. */
export interface BoxFile {
  root: string;
  relative: string;
}

function refuse(message: string): never {
  throw new DomainError(ErrorCode.ValidationFailed, message);
}

/**
 * Finds the host file a box path (`/workspace/…`) names, in the box's workspace folder on the
 * host. Refused (400): anything but a plain path under /workspace/, a `..` segment, a NUL, and
 * a path that resolves (symlinks followed) outside the workspace; 404 when there is no file.
 */
export async function resolveBoxFile(workspace: string, boxPath: unknown): Promise<BoxFile> {
  if (typeof boxPath !== 'string' || boxPath.length === 0)
    refuse(`path: the box path of a file, such as ${PREFIX}recording.mp4`);
  if (boxPath.length > MAX_PATH) refuse(`path: at most ${MAX_PATH} characters`);
  if (boxPath.includes('\0')) refuse('path: must not contain NUL');
  if (!boxPath.startsWith(PREFIX)) refuse(`path: must be a file under ${PREFIX}`);
  const segments = boxPath.slice(PREFIX.length).split('/');
  if (segments.includes('..')) refuse('path: must not contain ".." segments');
  if (segments.every((s) => s === '' || s === '.')) refuse('path: names the workspace, not a file');
  const root = await real(workspace, `this session's box has no workspace`);
  const file = await real(path.join(root, ...segments), `no file ${boxPath} in the box`);
  if (!file.startsWith(root + path.sep)) refuse(`path: ${boxPath} resolves outside ${PREFIX}`);
  const stat = await fs.stat(file);
  if (!stat.isFile()) throw new DomainError(ErrorCode.NotFound, `${boxPath} is not a file`);
  return { root, relative: path.relative(root, file) };
}

/** The path with every symlink resolved; NotFound when it (or a folder on the way) is missing. */
async function real(p: string, missing: string): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new DomainError(ErrorCode.NotFound, missing);
    if (code === 'ELOOP') refuse('path: too many levels of symbolic links');
    if (code === 'EACCES') throw new DomainError(ErrorCode.Forbidden, `${missing}: not readable`);
    throw e;
  }
}
