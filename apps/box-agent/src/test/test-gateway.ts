import * as fs from 'node:fs';
import * as http from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';

/** One frame as the gateway received it, with the connection it came on (1, 2, …). */
export interface ReceivedFrame {
  event: string;
  data: any;
  connection: number;
}

type Answer = (call: any, socket: WebSocket) => object | undefined;

/** Answers every call with `{ tool, args }` so a test sees what was forwarded. */
export const echo: Answer = (call) => ({
  callId: call.callId,
  ok: true,
  result: { tool: call.tool, args: call.args },
});

/**
 * The control plane's side of the protocol, for tests: a real `ws` server on a Unix socket,
 * speaking Nest's `{ event, data }` frames, that records what the daemon sends.
 */
export class TestGateway {
  readonly frames: ReceivedFrame[] = [];
  readonly sockets = new Set<WebSocket>();
  connections = 0;
  /** How calls are answered; return undefined to leave a call unanswered. */
  answer: Answer = echo;
  private waiters: Array<{ check: () => void; timer: NodeJS.Timeout }> = [];

  private constructor(
    readonly socketPath: string,
    private readonly server: http.Server,
    private readonly wss: WebSocketServer,
  ) {
    wss.on('connection', (socket) => this.accept(socket));
  }

  static async start(socketPath: string): Promise<TestGateway> {
    fs.rmSync(socketPath, { force: true });
    const server = http.createServer();
    // The control plane's path and frame limit (apps/control-plane/src/box-gateway/box-sockets.ts).
    const wss = new WebSocketServer({ server, path: '/box', maxPayload: 1024 * 1024 });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    return new TestGateway(socketPath, server, wss);
  }

  /** The first frame (from index `since`) matching, waiting for it if needed. */
  async waitFor(
    match: (f: ReceivedFrame) => boolean,
    since = 0,
    timeoutMs = 8_000,
  ): Promise<ReceivedFrame> {
    const find = () => this.frames.slice(since).find(match);
    const found = find();
    if (found) return found;
    return new Promise((resolve, reject) => {
      const waiter = {
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(new Error('no matching frame in time'));
        }, timeoutMs),
        check: () => {
          const frame = find();
          if (!frame) return;
          clearTimeout(waiter.timer);
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(frame);
        },
      };
      this.waiters.push(waiter);
    });
  }

  event(event: string, since = 0): Promise<ReceivedFrame> {
    return this.waitFor((f) => f.event === event, since);
  }

  calls(): ReceivedFrame[] {
    return this.frames.filter((f) => f.event === 'call');
  }

  push(event: string, data: unknown): void {
    this.sendRaw(JSON.stringify({ event, data }));
  }

  sendRaw(text: string | Buffer): void {
    for (const s of this.sockets) s.send(text);
  }

  async close(): Promise<void> {
    for (const w of this.waiters) clearTimeout(w.timer);
    for (const s of this.sockets) s.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: WebSocket): void {
    const connection = ++this.connections;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('message', (raw) => {
      const { event, data } = JSON.parse((raw as Buffer).toString('utf8'));
      this.frames.push({ event, data, connection });
      for (const w of [...this.waiters]) w.check();
      if (event !== 'call') return;
      const result = this.answer(data, socket);
      if (result) socket.send(JSON.stringify({ event: 'result', data: result }));
    });
  }
}
