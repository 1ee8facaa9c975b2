import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { ScreenSize } from '@sessionboxer/mcp-adapters/desktop';
import type { Log } from '../log';

export interface DisplayOptions {
  /** ":1" */
  display: string;
  screen: ScreenSize;
  log: Log;
  /** How long Xvfb has to accept connections before it is killed and started again. */
  readyTimeoutMs?: number;
  xvfb?: string;
}

const READY_TIMEOUT_MS = 10_000;
const STOP_GRACE_MS = 2_000;
/** Restart delays grow from 250 ms to 30 s; a server that stayed up a minute starts over. */
const RESTART_MIN_MS = 250;
const RESTART_MAX_MS = 30_000;
const STABLE_MS = 60_000;
const STDERR_TAIL = 2_000;

/**
 * Xvfb's argv. -noreset: else the server resets (pointer recentred, keymap reloaded) whenever
 * its last client disconnects, which an empty desktop does between two tool calls.
 * -displayfd 3: Xvfb writes the display number there once it accepts connections.
 */
export function xvfbArgs(display: string, screen: ScreenSize): string[] {
  const size = `${screen.width}x${screen.height}x24`;
  return [display, '-screen', '0', size, '-nolisten', 'tcp', '-noreset', '-displayfd', '3'];
}

export function restartDelayMs(attempt: number): number {
  return Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** Math.min(attempt, 16));
}

/**
 * The box's X display: an Xvfb the daemon starts, watches and restarts if it dies, and kills
 * on shutdown. Starting never blocks the daemon; `ready()` says when the display is up.
 */
export class VirtualDisplay {
  private child: ChildProcess | null = null;
  private stopping = false;
  private attempt = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private readyWaiters: Array<() => void> = [];
  private isReady = false;

  constructor(private readonly opts: DisplayOptions) {}

  get display(): string {
    return this.opts.display;
  }

  /** The running Xvfb's pid, or undefined between two runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    if (this.child || this.stopping) return;
    const child = spawn(this.opts.xvfb ?? 'Xvfb', xvfbArgs(this.opts.display, this.opts.screen), {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.isReady = false;
    const started = Date.now();
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (t: string) => {
      stderr = (stderr + t).slice(-STDERR_TAIL);
    });
    const timer = this.watchReady(child);
    child.on('error', (e) => {
      clearTimeout(timer);
      this.child = null;
      // Not installed: starting it again would fail the same way.
      this.opts.log.error(
        `cannot start Xvfb: ${e.message} (SESSIONBOXER_DESKTOP=off runs without a display)`,
      );
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const said = stderr.trim().split('\n').slice(-2).join('; ');
      this.onExit(child, `${signal ?? code}${said ? `: ${said}` : ''}`, Date.now() - started);
    });
  }

  /** Marks the display ready when Xvfb says so on fd 3; kills an Xvfb that never does. */
  private watchReady(child: ChildProcess): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.opts.log.error(`Xvfb ${this.display} not ready after ${this.readyTimeout()} ms`);
      child.kill('SIGKILL');
    }, this.readyTimeout());
    (child.stdio[3] as Readable).once('data', () => {
      clearTimeout(timer);
      this.markReady();
    });
    return timer;
  }

  /** Starts Xvfb again after a delay that grows while it keeps dying young. */
  private onExit(child: ChildProcess, how: string, livedMs: number): void {
    if (this.child !== child) return;
    this.child = null;
    this.isReady = false;
    if (this.stopping) return;
    if (livedMs > STABLE_MS) this.attempt = 0;
    const delay = restartDelayMs(this.attempt++);
    this.opts.log.warn(`Xvfb ${this.display} exited (${how}); restarting in ${delay} ms`);
    this.restartTimer = setTimeout(() => this.start(), delay);
  }

  /** Resolves once the current (or next) Xvfb accepts connections. */
  ready(): Promise<void> {
    if (this.isReady) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** SIGTERM, then SIGKILL after a grace period; no restart after this. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(force);
  }

  private readyTimeout(): number {
    return this.opts.readyTimeoutMs ?? READY_TIMEOUT_MS;
  }

  private markReady(): void {
    this.isReady = true;
    this.opts.log.info(
      `display ${this.display} ready (${this.opts.screen.width}x${this.opts.screen.height})`,
    );
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }
}
