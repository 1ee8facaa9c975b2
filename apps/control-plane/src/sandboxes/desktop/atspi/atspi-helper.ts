import type { ChildProcess } from 'node:child_process';
import type { BoxDriver } from '../../../boxes';
import { ATSPI_SCRIPT } from './atspi-script';
import { DESKTOP_BUS } from './bus';
import { AtspiError, type AtspiErrorCode } from './atspi-types';

/** Debian's python3, where python3-gi and python3-pyatspi are (not a pyenv on PATH). */
const PYTHON = '/usr/bin/python3';
/** One request's bound: a tree of a busy app takes a few seconds at most; a hung one, never. */
const REQUEST_TIMEOUT_MS = 30_000;

interface Waiter {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

interface Answer {
  id: number;
  ok: boolean;
  result?: unknown;
  code?: AtspiErrorCode | 'bus_changed';
  error?: string;
}

/**
 * One python3 AT-SPI helper per sandbox, started through the driver's exec at the first
 * request and kept while the desktop runs (stopDesktop closes it): a tree then costs the
 * D-Bus calls only, not python's start and pyatspi's import. If it ends, the next request
 * starts one; a request it could not answer because the bus was started again is sent once
 * more to a new one.
 */
class AtspiHelper {
  private child: ChildProcess | null = null;
  private readonly waiting = new Map<number, Waiter>();
  private buf = '';
  private next = 0;
  private stderr = '';

  constructor(
    private readonly driver: BoxDriver,
    private readonly sandboxId: string,
  ) {}

  async request(req: Record<string, unknown>): Promise<unknown> {
    try {
      return await this.send(req);
    } catch (e) {
      if (!(e instanceof AtspiError && e.retry)) throw e;
      return this.send(req);
    }
  }

  close(): void {
    const child = this.child;
    this.child = null;
    this.fail(child, new AtspiError('failed', 'the AT-SPI helper was closed'));
    child?.stdin?.end();
    child?.kill('SIGKILL');
  }

  private send(req: Record<string, unknown>): Promise<unknown> {
    const child = this.child ?? this.start();
    const id = (this.next = (this.next + 1) >>> 0 || 1);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // A helper stuck on a hung app answers nothing more: a new one serves the next call.
        this.waiting.delete(id);
        reject(new AtspiError('failed', `AT-SPI did not answer within ${REQUEST_TIMEOUT_MS} ms`));
        if (this.child === child) this.close();
      }, REQUEST_TIMEOUT_MS);
      this.waiting.set(id, { resolve, reject, timer });
      child.stdin?.write(`${JSON.stringify({ ...req, id })}\n`);
    });
  }

  private start(): ChildProcess {
    const child = this.driver.exec(this.sandboxId, [PYTHON, '-c', ATSPI_SCRIPT], {
      env: { DBUS_SESSION_BUS_ADDRESS: DESKTOP_BUS },
    });
    this.child = child;
    this.buf = '';
    this.stderr = '';
    child.stdin?.on('error', () => undefined);
    child.stderr?.setEncoding('utf8').on('data', (t: string) => {
      this.stderr = (this.stderr + t).slice(-2000);
    });
    child.stdout?.setEncoding('utf8').on('data', (t: string) => this.onData(t));
    const gone = () => {
      if (this.child === child) this.child = null;
      const why = this.stderr.trim().split('\n').pop();
      this.fail(child, new AtspiError('failed', `the AT-SPI helper ended${why ? `: ${why}` : ''}`));
    };
    child.once('error', gone);
    child.once('close', gone);
    return child;
  }

  /** Rejects what still waits, when `child` (the one they were sent to) is gone. */
  private fail(child: ChildProcess | null, error: AtspiError): void {
    if (child === null || this.child !== null) return;
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(error);
    }
    this.waiting.clear();
  }

  private onData(t: string): void {
    this.buf += t;
    let i: number;
    while ((i = this.buf.indexOf('\n')) >= 0) {
      const line = this.buf.slice(0, i);
      this.buf = this.buf.slice(i + 1);
      let a: Answer;
      try {
        a = JSON.parse(line) as Answer;
      } catch {
        continue;
      }
      if (a.id === 0 && !a.ok) {
        // Said at start, before any request was read: every waiting one gets it.
        for (const w of this.waiting.values()) {
          clearTimeout(w.timer);
          w.reject(new AtspiError(a.code as AtspiErrorCode, a.error ?? 'no desktop'));
        }
        this.waiting.clear();
        continue;
      }
      const w = this.waiting.get(a.id);
      if (!w) continue;
      this.waiting.delete(a.id);
      clearTimeout(w.timer);
      if (a.ok) w.resolve(a.result);
      else if (a.code === 'bus_changed') {
        // It exits: the retry goes to a new one.
        this.close();
        w.reject(new AtspiError('failed', a.error ?? 'the desktop bus changed', true));
      } else w.reject(new AtspiError(a.code ?? 'failed', a.error ?? 'AT-SPI failed'));
    }
  }
}

const helpers = new WeakMap<BoxDriver, Map<string, AtspiHelper>>();

export function atspiHelper(driver: BoxDriver, sandboxId: string): AtspiHelper {
  let map = helpers.get(driver);
  if (!map) helpers.set(driver, (map = new Map<string, AtspiHelper>()));
  let helper = map.get(sandboxId);
  if (!helper) map.set(sandboxId, (helper = new AtspiHelper(driver, sandboxId)));
  return helper;
}

/** Ends the sandbox's helper, if one runs (the desktop stops: its bus goes). */
export function closeAtspi(driver: BoxDriver, sandboxId: string): void {
  const map = helpers.get(driver);
  map?.get(sandboxId)?.close();
  map?.delete(sandboxId);
}
