import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ToolCallError } from '@sessionboxer/mcp-adapters/kit';
import { assertInside, ensureFolders, OutsideWorkspaceError } from '../../workspace/safe-write';

/**
 * Where recordings live: /workspace/recordings, created without following a symlink the agent
 * may have planted there; a path the agent passes back must resolve (symlinks included) to a
 * file inside the workspace.
 */

export const RECORDINGS_FOLDER = 'recordings';

/** The recordings folder, real path, created when missing. */
export async function recordingsFolder(workspace: string): Promise<string> {
  const root = await fs.realpath(workspace);
  const dir = await ensureFolders(root, RECORDINGS_FOLDER);
  assertInside(root, await fs.realpath(dir), RECORDINGS_FOLDER);
  return dir;
}

function stamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
}

/** A name no file has yet: recordings/2026-11-30T10-00-00Z.mp4 (then -2, -3…). */
export async function newRecordingPath(dir: string, now: Date): Promise<string> {
  for (let n = 1; ; n++) {
    const file = path.join(dir, `${stamp(now)}${n > 1 ? `-${n}` : ''}.mp4`);
    const taken = await fs.lstat(file).then(
      () => true,
      () => false,
    );
    if (!taken) return file;
  }
}

/** Beside the video: the capture while recording, the log, the .vtt. */
export function siblings(mp4: string) {
  const dir = path.dirname(mp4);
  const base = path.basename(mp4, path.extname(mp4));
  return {
    capture: path.join(dir, `.${base}.capture.mkv`),
    log: path.join(dir, `.${base}.ffmpeg.log`),
    vtt: path.join(dir, `${base}.vtt`),
  };
}

/** A finished recording the agent names: a real .mp4 file inside the workspace. */
export async function existingRecording(workspace: string, given: string): Promise<string> {
  const refuse = (message: string) =>
    new ToolCallError('narrate_recording', [{ field: 'path', message }]);
  const root = await fs.realpath(workspace);
  const inside = (file: string) => {
    try {
      assertInside(root, file, given);
      return true;
    } catch (e) {
      if (e instanceof OutsideWorkspaceError) return false;
      throw e;
    }
  };
  const outside = `path must be inside the workspace ${workspace}`;
  // As given, or through the workspace's name when that is a symlink to root.
  const direct = path.resolve(root, given);
  const lexical = inside(direct)
    ? direct
    : path.resolve(root, path.relative(path.resolve(workspace), direct));
  if (!inside(lexical)) throw refuse(`${outside} (got ${given})`);
  let real: string;
  try {
    real = await fs.realpath(lexical);
  } catch {
    throw refuse(`path ${given} does not exist`);
  }
  if (!inside(real)) throw refuse(`${outside}: ${given} leads to ${real}`);
  if (!(await fs.stat(real)).isFile()) throw refuse(`path ${given} is not a file`);
  if (path.extname(real).toLowerCase() !== '.mp4') throw refuse(`path ${given} is not an .mp4`);
  return real;
}
