import WebSocket from 'ws';
import { errorMessage, type Log } from '../log';
import { backoffDelay } from './backoff';
import { envelope } from './frames';

export interface ConnectionEvents {
  open(): void;
  message(event: string, data: unknown): void;
  /** Only after an `open`: a connection that never opened is just a failed attempt. */
  close(): void;
}

export interface ConnectionOptions {
  socketPath: string;
  path: string;
  events: ConnectionEvents;
  log: Log;
}

/** A connection that stayed up this long resets the backoff (a flapping one does not). */
const STABLE_AFTER_MS = 1_000;
/** A gateway that stops answering pings is treated as gone, so calls get resent elsewhere. */
const PING_EVERY_MS = 10_000;
const HANDSHAKE_TIMEOUT_MS = 5_000;
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * The WebSocket to the control plane's gateway over the box's Unix socket, re-established
 * for as long as the daemon lives. Frames are Nest's `{ event, data }` JSON.
 */
export class GatewayConnection {
  private socket: WebSocket | null = null;
  private isOpen = false;
  private stopped = false;
  private attempt = 0;
  private alive = true;
  private lastError = '';
  private reportedDown = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly opts: ConnectionOptions) {}

  get connected(): boolean {
    return this.isOpen;
  }

  start(): void {
    this.connect();
  }

  /** False when there is no open connection (the frame was not sent). */
  send(event: string, data: unknown): boolean {
    const socket = this.socket;
    if (!this.isOpen || !socket || socket.readyState !== WebSocket.OPEN) return false;
    try {
      socket.send(JSON.stringify({ event, data }));
      return true;
    } catch (e) {
      this.opts.log.warn(`could not send ${event}: ${errorMessage(e)}`);
      return false;
    }
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
    this.socket?.terminate();
  }

  private connect(): void {
    if (this.stopped) return;
    const url = `ws+unix://${this.opts.socketPath}:${this.opts.path}`;
    let socket: WebSocket;
    try {
      socket = new WebSocket(url, {
        handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
        maxPayload: MAX_FRAME_BYTES,
        perMessageDeflate: false,
      });
    } catch (e) {
      // Only a malformed address throws here; keep trying like any other failure, loudly.
      this.opts.log.error(`cannot connect to ${url}: ${errorMessage(e)}`);
      this.later(() => this.connect(), backoffDelay(this.attempt++));
      return;
    }
    this.socket = socket;
    socket.on('open', () => this.onOpen(socket));
    socket.on('message', (raw, isBinary) => this.onMessage(raw, isBinary));
    socket.on('pong', () => (this.alive = true));
    // ws always follows an error with 'close', where the reconnect is decided.
    socket.on('error', (e) => (this.lastError = errorMessage(e)));
    socket.on('close', () => this.onClose(socket));
  }

  private onOpen(socket: WebSocket): void {
    if (socket !== this.socket) return;
    this.isOpen = true;
    this.alive = true;
    this.reportedDown = false;
    this.opts.log.info(`connected to the gateway at ${this.opts.socketPath}`);
    this.later(() => (this.attempt = 0), STABLE_AFTER_MS);
    const ping = setInterval(() => this.ping(socket), PING_EVERY_MS).unref();
    this.timers.push(ping);
    this.opts.events.open();
  }

  private ping(socket: WebSocket): void {
    if (!this.alive) {
      this.opts.log.warn('the gateway stopped answering pings; reconnecting');
      socket.terminate();
      return;
    }
    this.alive = false;
    socket.ping();
  }

  private onMessage(raw: WebSocket.RawData, isBinary: boolean): void {
    const text = isBinary ? null : rawText(raw);
    let parsed: unknown = undefined;
    try {
      parsed = text === null ? undefined : JSON.parse(text);
    } catch {
      // reported below with the other malformed frames
    }
    const frame = envelope.safeParse(parsed);
    if (!frame.success) {
      this.opts.log.warn(
        `ignored a malformed frame from the gateway: ${(text ?? '').slice(0, 200)}`,
      );
      return;
    }
    this.opts.events.message(frame.data.event, frame.data.data);
  }

  private onClose(socket: WebSocket): void {
    if (socket !== this.socket) return;
    this.clearTimers();
    this.socket = null;
    const wasOpen = this.isOpen;
    this.isOpen = false;
    if (wasOpen) {
      this.opts.log.warn('lost the connection to the gateway; reconnecting');
      this.opts.events.close();
    } else if (!this.reportedDown && !this.stopped) {
      // Logged once per outage, not on every retry.
      this.opts.log.warn(`gateway unreachable (${this.lastError || 'closed'}); retrying`);
      this.reportedDown = true;
    }
    if (!this.stopped) this.later(() => this.connect(), backoffDelay(this.attempt++));
  }

  private later(fn: () => void, ms: number): void {
    this.timers.push(setTimeout(fn, ms).unref());
  }

  private clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }
}

function rawText(raw: WebSocket.RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.isBuffer(raw) ? raw.toString('utf8') : Buffer.from(raw).toString('utf8');
}
