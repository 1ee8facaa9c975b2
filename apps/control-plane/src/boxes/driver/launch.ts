import { spawn } from 'node:child_process';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readlinkSync,
} from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { waitFor } from './box-control';
import { allPids, procStat } from './host';

/** Spawning a box's main process and knowing when it is really started. */

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Launched {
  /** Host pid the driver spawned (or adopted): bwrap's outer process, or the plain command. */
  mainPid: number;
  /** SIGKILL to the main process (whether this control plane spawned it or adopted it). */
  kill(): void;
  /** Settles when the main process has exited, even if that happened before launch resolved. */
  exited: Promise<ExitStatus>;
  /** Host pid of the box's pid-namespace init (bubblewrap only): the target of exec. */
  nsInitPid: number | null;
  pidNamespace: string | null;
}

/** The last bytes a box wrote (its log file, from where this start began), to say why it failed. */
export class OutputTail {
  constructor(
    private readonly file: string,
    private readonly from: number,
    private readonly max = 4096,
  ) {}

  toString(): string {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch {
      return '';
    }
    try {
      const start = Math.max(this.from, fstatSync(fd).size - this.max);
      const buf = Buffer.alloc(Math.max(0, fstatSync(fd).size - start));
      readSync(fd, buf, 0, buf.length, start);
      return buf.toString().trim();
    } finally {
      closeSync(fd);
    }
  }
}

export interface LaunchOptions {
  cwd?: string;
  env: Record<string, string>;
  /**
   * The box's stdout and stderr: a log file descriptor, never a pipe to the control plane, so
   * a box that outlives the control plane writes on (no EPIPE, no SIGPIPE).
   */
  output: number;
  tail: OutputTail;
}

/** The I/O half of LaunchOptions: what the driver sets up before the isolator adds the rest. */
export type IO = Omit<LaunchOptions, 'cwd' | 'env'>;

/** stdout and stderr appended to `<logDir>/box-<id>.log`; the caller closes `io.output`. */
export function openBoxLog(logDir: string, sessionId: string): { io: IO; file: string } {
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  const file = path.join(logDir, `box-${sessionId}.log`);
  const output = openSync(file, 'a', 0o600);
  return { io: { output, tail: new OutputTail(file, fstatSync(output).size) }, file };
}

function spawnBox(argv: string[], opts: LaunchOptions, extraFd: boolean) {
  const child = spawn(argv[0], argv.slice(1), {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', opts.output, opts.output, ...(extraFd ? ['pipe' as const] : [])],
    // Its own session: no signal of the control plane's terminal or process group reaches it.
    detached: true,
  });
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  // The box outlives the control plane: nothing here waits for it to exit.
  child.unref();
  const kill = () => void child.kill('SIGKILL');
  return { child, exited, kill };
}

/** A plain process: started once Node reports it spawned. */
export function launchProcess(argv: string[], opts: LaunchOptions): Promise<Launched> {
  const { child, exited, kill } = spawnBox(argv, opts, false);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('spawn', () => {
      child.off('error', reject);
      const mainPid = child.pid as number;
      resolve({ mainPid, kill, exited, nsInitPid: null, pidNamespace: null });
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
  const { child, exited, kill } = spawnBox(argv, opts, true);
  const info = child.stdio[3] as Readable;
  let text = '';
  info.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve, reject) => {
    info.once('close', () => {
      const nsInitPid = childPid(text);
      if (nsInitPid !== null) {
        const mainPid = child.pid as number;
        const pidNamespace = namespaceOf(nsInitPid);
        const launched = { mainPid, kill, exited, nsInitPid, pidNamespace };
        void sandboxReady(nsInitPid).then(
          () => resolve(launched),
          (e: unknown) => {
            kill(); // the driver's release kills the rest of the box (its cgroup or pid ns)
            reject(e instanceof Error ? e : new Error(String(e)));
          },
        );
        return;
      }
      kill();
      // Its stderr is in the log file by the time it has exited.
      void exited.then(() => {
        reject(new Error(`bubblewrap did not start the box: ${opts.tail.toString()}`));
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
