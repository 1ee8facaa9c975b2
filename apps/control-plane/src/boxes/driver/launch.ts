import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, openSync, readFileSync, readlinkSync, type WriteStream } from 'node:fs';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { waitFor } from './box-control';
import { allPids, procStat } from './host';

/** Spawning a box's main process and knowing when it is really started. */

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Launched {
  child: ChildProcess;
  /** Settles when the main process has exited, even if that happened before launch resolved. */
  exited: Promise<ExitStatus>;
  /** Host pid of the box's pid-namespace init (bubblewrap only): the target of exec. */
  nsInitPid: number | null;
  pidNamespace: string | null;
}

/** The last bytes a box wrote to stderr: enough to say why it failed, never unbounded. */
export class OutputTail {
  private text = '';

  constructor(private readonly max = 4096) {}

  push(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-this.max);
  }

  toString(): string {
    return this.text.trim();
  }
}

export interface LaunchOptions {
  cwd?: string;
  env: Record<string, string>;
  /** Where the box's stdout goes (a log file descriptor) or 'ignore'. */
  stdout: number | 'ignore';
  stderrTail: OutputTail;
  /** Also receives the box's stderr (the log file), when set. */
  stderrLog?: Writable;
}

/** The I/O half of LaunchOptions: what the driver sets up before the isolator adds the rest. */
export type IO = Omit<LaunchOptions, 'cwd' | 'env'>;

/** stdout to `<logDir>/box-<id>.log` and stderr there too (via the tail), or nowhere. */
export function openBoxLog(
  logDir: string | null,
  sessionId: string,
  tail: OutputTail,
): { io: IO; log: WriteStream | null } {
  if (!logDir) return { io: { stdout: 'ignore', stderrTail: tail }, log: null };
  const file = path.join(logDir, `box-${sessionId}.log`);
  const log = createWriteStream(file, { flags: 'a' });
  return { io: { stdout: openSync(file, 'a'), stderrTail: tail, stderrLog: log }, log };
}

interface Spawned {
  child: ChildProcess;
  exited: Promise<ExitStatus>;
}

function spawnBox(argv: string[], opts: LaunchOptions, extraFd: boolean): Spawned {
  const child = spawn(argv[0], argv.slice(1), {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', opts.stdout, 'pipe', ...(extraFd ? ['pipe' as const] : [])],
    // Its own session: a terminal's Ctrl-C to the control plane does not reach boxes directly.
    detached: true,
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    opts.stderrTail.push(chunk);
    opts.stderrLog?.write(chunk);
  });
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  return { child, exited };
}

/** A plain process: started once Node reports it spawned. */
export function launchProcess(argv: string[], opts: LaunchOptions): Promise<Launched> {
  const { child, exited } = spawnBox(argv, opts, false);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('spawn', () => {
      child.off('error', reject);
      resolve({ child, exited, nsInitPid: null, pidNamespace: null });
    });
  });
}

/**
 * bwrap with `--info-fd 3`: bwrap writes `{"child-pid": N, ...}` there once the namespaces
 * exist and closes it before running the command, so create resolves when the box can be
 * exec'd into. The pipe closing without that JSON means the box never started (bad mount,
 * missing program, no cgroup...): bwrap's stderr says why.
 */
export function launchBubblewrap(argv: string[], opts: LaunchOptions): Promise<Launched> {
  const { child, exited } = spawnBox(argv, opts, true);
  const info = child.stdio[3] as Readable;
  let text = '';
  info.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve, reject) => {
    info.once('close', () => {
      const nsInitPid = childPid(text);
      if (nsInitPid !== null) {
        const launched = { child, exited, nsInitPid, pidNamespace: namespaceOf(nsInitPid) };
        void sandboxReady(nsInitPid).then(
          () => resolve(launched),
          (e: unknown) => {
            child.kill('SIGKILL'); // bwrap's --die-with-parent takes the sandbox along
            reject(e instanceof Error ? e : new Error(String(e)));
          },
        );
        return;
      }
      child.kill('SIGKILL');
      // Let the last of stderr arrive before quoting it.
      const stderrDone = child.stderr ? finished(child.stderr) : Promise.resolve();
      void Promise.all([exited, stderrDone.catch(() => undefined)]).then(() => {
        reject(new Error(`bubblewrap did not start the box: ${opts.stderrTail.toString()}`));
      });
    });
  });
}

/**
 * bwrap reports the child pid before that child has built the box's mounts: an exec joining
 * the mount namespace that early sees a half-made root (measured: "setpriv: No such file").
 * The namespace init forks the command only once the sandbox is complete, so its first child
 * is the signal. Resolves too if the box already ended (its exit is reported elsewhere).
 */
async function sandboxReady(nsInitPid: number): Promise<void> {
  await waitFor(() => {
    const stat = procStat(nsInitPid);
    return stat === null || stat.state === 'Z' || hasChild(nsInitPid);
  }, `box init ${nsInitPid} to start its command`);
}

function hasChild(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim() !== '';
  } catch {
    // kernels without CONFIG_PROC_CHILDREN: look for a process whose parent it is
    return allPids().some((p) => procStat(p)?.ppid === pid);
  }
}

function namespaceOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return null; // the box already ended; nothing is left to signal
  }
}

function childPid(infoJson: string): number | null {
  try {
    const pid = (JSON.parse(infoJson) as { 'child-pid'?: unknown })['child-pid'];
    return typeof pid === 'number' && Number.isInteger(pid) ? pid : null;
  } catch {
    return null;
  }
}
