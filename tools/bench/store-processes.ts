/**
 * bench:store's multi-process figure: the same 64 writers appending 1 KB events to one file,
 * from one process and then split across two (each its own connection and group commit,
 * SQLite's write lock between them), every writer process started by `fork` and released at
 * once, so both figures pay the same start-up and differ only in the number of processes.
 */
import { fork } from 'node:child_process';
import { join, resolve } from 'node:path';
import { rate } from './bench-events';

const WRITER = join(__dirname, 'store-writer.ts');
const REPO_ROOT = resolve(__dirname, '../..');

export interface ProcessesResult {
  eventsPerSecond: number;
  p50: number;
  p99: number;
}

/** `processes` writer processes share `writers` writers, each appending `appends` events. */
export async function appendFromProcesses(
  file: string,
  processes: number,
  writers: number,
  appends: number,
): Promise<ProcessesResult> {
  const children = Array.from({ length: processes }, () =>
    fork(WRITER, [file, String(writers / processes), String(appends)], {
      cwd: REPO_ROOT,
      execArgv: ['-r', '@swc-node/register'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  try {
    const done = children.map(
      (child) =>
        new Promise<number[]>((resolveDone, reject) => {
          child.on('message', (m) => {
            if (m !== 'ready') resolveDone(m as number[]);
          });
          child.once('exit', (code) => reject(new Error(`a writer exited with ${code}`)));
        }),
    );
    await Promise.all(children.map((c) => new Promise((ready) => c.once('message', ready))));
    const start = performance.now();
    for (const child of children) child.send('go');
    const latencies = (await Promise.all(done)).flat().sort((a, b) => a - b);
    const ms = performance.now() - start;
    const at = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
    return { eventsPerSecond: rate(latencies.length, ms), p50: at(0.5), p99: at(0.99) };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }
}
