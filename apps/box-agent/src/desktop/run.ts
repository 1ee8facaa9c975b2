import { execFile } from 'node:child_process';

export interface RunOptions {
  display: string;
  timeoutMs: number;
  /** Bytes of stdout accepted (a screenshot is width × height × 4). */
  maxBuffer?: number;
}

export class CommandError extends Error {}

/** The last line a tool printed to stderr, which says why it failed ("unable to open display"). */
function lastLine(stderr: Buffer | string): string {
  const lines = stderr.toString().trim().split('\n');
  return lines[lines.length - 1] ?? '';
}

function reason(command: string, error: Error, stderr: Buffer, timeoutMs: number): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${command} is not installed`;
  if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return `${command} wrote more than expected`;
  if ((error as { killed?: boolean }).killed) {
    return `${command} did not finish within ${timeoutMs} ms`;
  }
  return `${command} failed: ${lastLine(stderr) || error.message}`;
}

/**
 * Runs `command` with argv `args` on the display, no shell anywhere: each argument reaches the
 * program as it is, so text with quotes, `$(…)` or `;` is data. Resolves with stdout.
 */
export function run(command: string, args: readonly string[], opts: RunOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        encoding: 'buffer',
        env: { ...process.env, DISPLAY: opts.display },
        timeout: opts.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: opts.maxBuffer ?? 1 << 20,
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        reject(new CommandError(reason(command, error, stderr, opts.timeoutMs)));
      },
    );
  });
}
