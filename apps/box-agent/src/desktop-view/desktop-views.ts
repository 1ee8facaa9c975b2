import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import type { Log } from '../log';

export interface DesktopViewsOptions {
  /** The box's X display (":1"), or undefined when the box runs none. */
  display: string | undefined;
  /** The control plane's desktop-view socket in the box (DESKTOP_VIEW.socket). */
  socketPath: string;
  log: Log;
  x11vnc?: string;
  /** At most this many views at once (each is an x11vnc process). */
  maxViews?: number;
}

export class DesktopViewError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'UNAVAILABLE' | 'LIMIT_REACHED',
    message: string,
  ) {
    super(message);
  }
}

/**
 * x11vnc's argv for one view on stdio (-inetd): no password (the control plane checked the
 * person; the socket is reachable only from this box), no shared memory (a box's IPC
 * namespace is its own), -viewonly unless the person took control, quiet (stderr is ours).
 * -wait 10 -defer 10 (20 and 20 by default): a change reaches the viewer in ~26 ms instead of
 * ~59 (p50, `npm run bench:desktop-view`), for a little more polling while someone watches.
 */
export function x11vncArgs(display: string, control: boolean): string[] {
  const args = [
    '-inetd',
    '-display',
    display,
    '-q',
    '-nopw',
    '-noshm',
    '-once',
    '-wait',
    '10',
    '-defer',
    '10',
  ];
  return control ? args : [...args, '-viewonly'];
}

interface View {
  child: ChildProcess;
  socket: net.Socket;
}

const DEFAULT_MAX_VIEWS = 8;
const STDERR_TAIL = 2_000;

/**
 * The box's side of the live desktop view: one x11vnc per view, its stdio piped to a
 * connection to the control plane's socket. A view ends when either side closes.
 */
export class DesktopViews {
  private readonly views = new Map<string, View>();

  constructor(private readonly opts: DesktopViewsOptions) {}

  /** Starts the view `viewId`; resolves once its connection to the control plane is open. */
  async open(viewId: string, control: boolean): Promise<void> {
    const { display, log } = this.opts;
    if (display === undefined) {
      throw new DesktopViewError(
        'NOT_FOUND',
        'this box runs no desktop (SESSIONBOXER_DESKTOP is off)',
      );
    }
    if (this.views.has(viewId)) throw new DesktopViewError('UNAVAILABLE', `view ${viewId} is open`);
    if (this.views.size >= (this.opts.maxViews ?? DEFAULT_MAX_VIEWS)) {
      throw new DesktopViewError(
        'LIMIT_REACHED',
        `this box already serves ${this.views.size} desktop views`,
      );
    }
    const socket = await connect(this.opts.socketPath);
    socket.write(`${viewId}\n`);
    // x11vnc -inetd needs a socket on fd 0 (it reads and writes there, peeking for a
    // WebSocket handshake first): it gets the connection itself, and the daemon is out of
    // the data path. The socket never read (paused from the start), so no byte is lost.
    const child = spawn(this.opts.x11vnc ?? 'x11vnc', x11vncArgs(display, control), {
      stdio: [socket, socket, 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DISPLAY: display },
    });
    this.views.set(viewId, { child, socket });
    socket.on('error', () => undefined); // the connection's end is x11vnc's to see
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-STDERR_TAIL)));
    child.on('error', (e) =>
      log.warn(`desktop view ${viewId}: x11vnc did not start: ${e.message}`),
    );
    child.on('close', (code, signal) => {
      // Gone from the map: we ended it (SIGTERM, which x11vnc answers with exit 2).
      if (!this.views.has(viewId)) return;
      if (code !== 0 && code !== null)
        log.warn(`desktop view ${viewId}: x11vnc exited ${code}: ${stderr.trim()}`);
      else if (signal && signal !== 'SIGTERM')
        log.warn(`desktop view ${viewId}: x11vnc killed by ${signal}`);
      this.end(viewId);
    });
  }

  /**
   * Ends a view: the control plane says so when its side closed (x11vnc notices a viewer that
   * left only once the handshake began). Nothing when it is not open.
   */
  close(viewId: string): void {
    this.end(viewId);
  }

  closeAll(): void {
    for (const id of [...this.views.keys()]) this.end(id);
  }

  get size(): number {
    return this.views.size;
  }

  private end(viewId: string): void {
    const view = this.views.get(viewId);
    if (!view) return;
    this.views.delete(viewId);
    view.socket.destroy();
    if (view.child.exitCode === null && view.child.signalCode === null) view.child.kill('SIGTERM');
  }
}

function connect(path: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path);
    socket.pause();
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', (e) =>
      reject(
        new DesktopViewError(
          'UNAVAILABLE',
          `the control plane's desktop-view socket: ${e.message}`,
        ),
      ),
    );
  });
}
