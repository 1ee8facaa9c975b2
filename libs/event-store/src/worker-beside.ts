/**
 * Starts a worker thread from a file beside its caller: the compiled JavaScript as it is, or,
 * where the caller runs from its TypeScript source (the CLI, tests, benchmarks), that source
 * through swc, as the caller itself was loaded.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

/** `name` (no extension) in the folder of `from` (the caller's `__filename`). */
export function startWorkerBeside(from: string, name: string, workerData: unknown): Worker {
  const ext = path.extname(from);
  const file = path.join(path.dirname(from), `${name}${ext}`);
  if (ext === '.js') return new Worker(file, { workerData });
  const register = require.resolve('@swc-node/register');
  const code = `require(${JSON.stringify(register)}); require(${JSON.stringify(file)});`;
  return new Worker(code, { eval: true, workerData });
}
