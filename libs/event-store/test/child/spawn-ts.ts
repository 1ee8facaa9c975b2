/** Starts a TypeScript file of this repo in a child node process, path aliases and all. */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** The repository root: @swc-node/register reads tsconfig.json (and its paths) from there. */
export const REPO_ROOT = resolve(__dirname, '../../../..');

/** Spawns `node -r @swc-node/register <file> ...args` with stdout piped. */
export function spawnTs(file: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ['-r', '@swc-node/register', file, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves with the exit code (or the signal's name) once the child has exited. */
export function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  if (child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1)));
}
