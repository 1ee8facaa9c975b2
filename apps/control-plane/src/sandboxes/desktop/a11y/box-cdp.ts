import type { ChildProcess } from 'node:child_process';
import type { BoxDriver } from '../../../boxes';
import { DEVTOOLS_PORT } from '../desktop-launch';
import { CONNECT_DEVTOOLS } from '../cdp-open';

/**
 * One node process in the box per desktop holding Chromium's browser-level DevTools WebSocket
 * (its DevTools listen on the box's own 127.0.0.1, which the control plane cannot reach).
 * Each request is a JSON line on its stdin ({id, method, params, sessionId}: flattened
 * sessions, so every tab and frame shares the one socket); each answer a JSON line on its
 * stdout. Events are dropped but a target's detach, which forgets its session. Kept open, a
 * CDP call costs a pipe write and a WebSocket frame instead of a process and a connection.
 */
const PROXY = `
const port = process.argv[1];
${CONNECT_DEVTOOLS}
(async () => {
  const ws = await connectDevtools(port);
  ws.onclose = () => process.exit(0);
  // An answer (Chromium writes its id first) goes on as it came: a tree is MBs, not parsed here.
  // Other events (the AX tree's updates…) are dropped unread.
  ws.onmessage = (m) => {
    if (m.data.startsWith('{"id":')) return process.stdout.write(m.data + '\\n');
    if (!m.data.startsWith('{"method":"Target.detachedFromTarget"')) return;
    const r = JSON.parse(m.data);
    process.stdout.write(JSON.stringify({ detached: r.params.sessionId }) + '\\n');
  };
  let buf = '';
  process.stdin.setEncoding('utf8').on('data', (t) => {
    buf += t;
    let i;
    while ((i = buf.indexOf('\\n')) >= 0) {
      ws.send(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
  });
  process.stdin.on('end', () => process.exit(0));
})().catch((e) => {
  process.stdout.write(JSON.stringify({ fatal: String(e && e.message ? e.message : e) }) + '\\n');
  process.exit(1);
});
`;

/** A DevTools call that Chromium answered with an error (a node gone, a frame detached…). */
export class CdpError extends Error {}

interface Waiter {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/** One DevTools call, answered with its result (typed by the caller, as the protocol says). */
export type Cdp = <T = unknown>(method: string, params?: object, sessionId?: string) => Promise<T>;

interface Answer {
  id?: number;
  result?: unknown;
  error?: { message: string };
  detached?: string;
  fatal?: string;
}

export class BoxCdp {
  private child: ChildProcess | null = null;
  private readonly waiting = new Map<number, Waiter>();
  private buf = '';
  private next = 0;
  /** Called with a session Chromium detached (its tab closed or navigated away). */
  onDetached: (sessionId: string) => void = () => undefined;
  /** Called when the process ended (the desktop stopped, the box restarted). */
  onGone: () => void = () => undefined;

  constructor(
    private readonly driver: BoxDriver,
    private readonly sandboxId: string,
    private readonly timeoutMs = 20_000,
  ) {}

  readonly send: Cdp = <T>(method: string, params: object = {}, sessionId?: string) => {
    const child = this.child ?? this.start();
    const id = ++this.next;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new CdpError(`the browser did not answer ${method} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.waiting.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v as T)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      child.stdin?.write(`${JSON.stringify({ id, method, params, sessionId })}\n`);
    });
  };

  close(): void {
    this.child?.stdin?.end();
    this.child?.kill('SIGKILL');
  }

  private start(): ChildProcess {
    const argv = [
      process.execPath,
      '--experimental-websocket',
      '--no-warnings',
      '-e',
      PROXY,
      String(DEVTOOLS_PORT),
    ];
    const child = this.driver.exec(this.sandboxId, argv, {});
    this.child = child;
    this.buf = '';
    child.stdin?.on('error', () => undefined);
    child.stderr?.resume();
    child.stdout?.setEncoding('utf8').on('data', (t: string) => this.onData(t));
    const gone = () => {
      if (this.child !== child) return;
      this.child = null;
      this.fail(new CdpError('the DevTools connection in the box ended'));
      this.onGone();
    };
    child.once('error', gone);
    child.once('close', gone);
    return child;
  }

  private fail(error: Error): void {
    for (const w of this.waiting.values()) w.reject(error);
    this.waiting.clear();
  }

  /** A tree is one line of up to a few MB: only each new chunk is searched for its end. */
  private onData(t: string): void {
    let from = 0;
    let i;
    while ((i = t.indexOf('\n', from)) >= 0) {
      const line = this.buf + t.slice(from, i);
      this.buf = '';
      from = i + 1;
      this.deliver(JSON.parse(line) as Answer);
    }
    this.buf += t.slice(from);
  }

  private deliver(r: Answer): void {
    if (r.fatal !== undefined) return this.fail(new CdpError(r.fatal));
    if (r.detached !== undefined) return this.onDetached(r.detached);
    const w = this.waiting.get(r.id!);
    if (!w) return;
    this.waiting.delete(r.id!);
    if (r.error) w.reject(new CdpError(r.error.message));
    else w.resolve(r.result);
  }
}
