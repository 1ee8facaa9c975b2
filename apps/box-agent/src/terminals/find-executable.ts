import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Where the shell would find `name`, or null. Checked before spawning because a PTY child whose
 * exec fails only prints node-pty's "execvp(3) failed" and exits 1, which reads like the
 * command's own failure; a shell answers 127 "command not found" instead, and so do we.
 */
export function findExecutable(
  name: string,
  cwd: string,
  envPath = process.env.PATH,
): string | null {
  if (name.includes('/')) {
    const file = path.resolve(cwd, name);
    return isExecutableFile(file) ? file : null;
  }
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    const file = path.join(dir === '' ? cwd : dir, name);
    if (isExecutableFile(file)) return file;
  }
  return null;
}
