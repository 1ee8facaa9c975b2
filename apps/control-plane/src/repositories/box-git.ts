import type { BoxDriver } from '../boxes';

export interface BoxRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout passed `maxBytes` and the process was killed. */
  truncated: boolean;
}

/**
 * Runs argv inside the session's box (the driver's exec: its mounts, its user, its config and
 * hooks), which is the only place git may read a tree the box has touched. stdout is capped.
 */
export function runInBox(
  driver: BoxDriver,
  sessionId: string,
  argv: string[],
  options: { cwd?: string; maxBytes?: number; timeoutMs?: number } = {},
): Promise<BoxRun> {
  const maxBytes = options.maxBytes ?? 8 << 20;
  const child = driver.exec(sessionId, argv, { cwd: options.cwd });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let size = 0;
  let errSize = 0;
  let truncated = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        truncated = true;
        child.kill('SIGKILL');
      } else out.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      errSize += chunk.length;
      if (errSize <= 16_384) err.push(chunk);
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        truncated,
      });
    });
  });
}
