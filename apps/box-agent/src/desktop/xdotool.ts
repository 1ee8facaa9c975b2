import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Point } from '@sessionboxer/mcp-adapters/desktop';

/** Beyond a batch's own sleeps: how long xdotool may take before it is deemed stuck. */
export const BATCH_SLACK_MS = 5_000;
const STDERR_TAIL = 2_000;
/** What `getmouselocation` prints: the batch's acknowledgement. */
const LOCATION = /^x:(-?\d+) y:(-?\d+) /;

interface Pending {
  resolve(at: Point): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

/** How the long-lived xdotool is started: here by default; a sandbox's desktop starts it in its box. */
export type XdotoolSpawn = (
  command: string,
  args: string[],
  env: Record<string, string>,
) => ChildProcessWithoutNullStreams;

const spawnHere: XdotoolSpawn = (command, args, env) =>
  spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });

export class XdotoolError extends Error {}
/** xdotool ended under a batch (as opposed to a batch that timed out or a close). */
class XdotoolExited extends XdotoolError {}

/**
 * One `xdotool -` kept running for the server's life: it reads commands from stdin and runs
 * each as it arrives, so a click costs a line written instead of a process started (~1 ms
 * against ~4). A batch ends with `getmouselocation`, whose output line says the batch is
 * done (X requests of one connection are handled in order) and where the pointer is.
 * If xdotool dies, the next batch starts a new one.
 */
export class XdotoolScript {
  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly pending: Pending[] = [];
  private stderr = '';
  private stdout = '';

  constructor(
    private readonly display: string,
    private readonly command = 'xdotool',
    private readonly spawnChild: XdotoolSpawn = spawnHere,
  ) {}

  /** Runs `lines`, resolving with the pointer position once the display has done them. */
  async run(lines: readonly string[], expectedMs = 0): Promise<Point> {
    if (lines.some((l) => l.includes('\n'))) throw new XdotoolError('a command holds a newline');
    const reused = this.child !== null;
    try {
      return await this.batch(lines, expectedMs);
    } catch (e) {
      // After the daemon restarted the display, a running xdotool still holds the old
      // connection and exits at its first request, before doing anything: a new one can
      // run the batch on the new display.
      if (!reused || !(e instanceof XdotoolExited)) throw e;
      return this.batch(lines, expectedMs);
    }
  }

  private batch(lines: readonly string[], expectedMs: number): Promise<Point> {
    const child = this.child ?? this.spawn();
    return new Promise<Point>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(
          new XdotoolError(`xdotool did not finish within ${expectedMs + BATCH_SLACK_MS} ms`),
        );
      }, expectedMs + BATCH_SLACK_MS);
      this.pending.push({ resolve, reject, timer });
      child.stdin.write([...lines, 'getmouselocation', ''].join('\n'));
    });
  }

  /** Ends the process; pending batches fail. */
  close(): void {
    this.fail(new XdotoolError('xdotool was closed'));
  }

  private spawn(): ChildProcessWithoutNullStreams {
    const child = this.spawnChild(this.command, ['-'], { DISPLAY: this.display });
    this.child = child;
    this.stderr = '';
    this.stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => this.onStdout(text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_TAIL);
    });
    // A write after xdotool exited fails with EPIPE; the exit below already failed the batch.
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => this.onExit(child, e.message));
    child.on('exit', (code, signal) => this.onExit(child, `exited with ${signal ?? code}`));
    return child;
  }

  private onStdout(text: string): void {
    this.stdout += text;
    let newline: number;
    while ((newline = this.stdout.indexOf('\n')) >= 0) {
      const line = this.stdout.slice(0, newline);
      this.stdout = this.stdout.slice(newline + 1);
      const m = LOCATION.exec(line);
      const done = m && this.pending.shift();
      if (!done) continue;
      clearTimeout(done.timer);
      done.resolve({ x: Number(m[1]), y: Number(m[2]) });
    }
  }

  private onExit(child: ChildProcessWithoutNullStreams, how: string): void {
    if (this.child !== child) return;
    this.child = null;
    const said = this.stderr.trim().split('\n').slice(-3).join('; ');
    this.failPending(new XdotoolExited(`xdotool ${how}${said ? `: ${said}` : ''}`));
  }

  private fail(error: Error): void {
    const child = this.child;
    this.child = null;
    child?.kill('SIGKILL');
    this.failPending(error);
  }

  private failPending(error: Error): void {
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      p.reject(error);
    }
  }
}
