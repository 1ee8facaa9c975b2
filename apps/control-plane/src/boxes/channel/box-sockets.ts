import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import { WebSocketServer, type WebSocket } from 'ws';
import { JSON_MAX_BYTES } from '../../errors/json-policy';

/** The path Nest's BoxGateway is declared on; BoxWsAdapter hands it the server below. */
export const BOX_GATEWAY_PATH = '/box';

// Past the JSON policy's limit, so a frame a little too large gets its error frame (saying
// why) instead of ws closing the socket; only one over twice the limit closes it.
const MAX_FRAME = 2 * JSON_MAX_BYTES;

/**
 * One Unix socket per box, each feeding the same WebSocket server. The socket a connection
 * arrived on is the only thing that says which session is talking: it is recorded before the
 * gateway sees the connection, and no frame can change it.
 */
@Injectable()
export class BoxSockets {
  readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME });
  private readonly listeners = new Map<string, { server: http.Server; dirFd: number }>();
  private readonly sessionByClient = new WeakMap<WebSocket, string>();
  private readonly clientBySession = new Map<string, WebSocket>();
  private readonly logger = new Logger('BoxSockets');

  /** Opens the box's socket at `socketPath` (replacing a stale file from an earlier run). */
  async listen(sessionId: string, socketPath: string): Promise<void> {
    if (this.listeners.has(sessionId)) return;
    fs.rmSync(socketPath, { force: true });
    const listener = http.createServer((_, res) => res.writeHead(426).end('WebSocket only\n'));
    listener.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(sessionId, req, socket, head),
    );
    // Bound through a descriptor of its folder, so the address the kernel keeps (and a box
    // reads in /proc/net/unix) is /proc/self/fd/N/gateway.sock, never the host path. The
    // descriptor stays open while the socket does: closing unlinks that same address.
    const dirFd = fs.openSync(path.dirname(socketPath), 'r');
    try {
      const address = `/proc/self/fd/${dirFd}/${path.basename(socketPath)}`;
      await new Promise<void>((resolve, reject) => {
        listener.once('error', reject);
        listener.listen(address, () => resolve());
      });
      fs.chmodSync(socketPath, 0o600);
      // Owned like its folder: the box's root (a host uid of its own) must be able to connect.
      const owner = fs.lstatSync(path.dirname(socketPath));
      fs.lchownSync(socketPath, owner.uid, owner.gid);
    } catch (e) {
      listener.close();
      fs.closeSync(dirFd);
      throw e;
    }
    this.listeners.set(sessionId, { server: listener, dirFd });
  }

  sessionOf(client: WebSocket): string | undefined {
    return this.sessionByClient.get(client);
  }

  clientOf(sessionId: string): WebSocket | undefined {
    return this.clientBySession.get(sessionId);
  }

  /** Forgets a client when it closes (only if it is still the session's current one). */
  release(client: WebSocket): void {
    const sessionId = this.sessionByClient.get(client);
    if (sessionId && this.clientBySession.get(sessionId) === client)
      this.clientBySession.delete(sessionId);
  }

  async close(sessionId: string): Promise<void> {
    const listener = this.listeners.get(sessionId);
    this.listeners.delete(sessionId);
    this.clientBySession.get(sessionId)?.terminate();
    this.clientBySession.delete(sessionId);
    if (!listener) return;
    await new Promise<void>((resolve) => listener.server.close(() => resolve()));
    fs.closeSync(listener.dirFd);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.listeners.keys()].map((id) => this.close(id)));
  }

  private upgrade(
    sessionId: string,
    req: http.IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ): void {
    this.server.handleUpgrade(req, socket, head, (ws) => {
      const previous = this.clientBySession.get(sessionId);
      // A daemon that reconnects replaces its old connection; there is one daemon per box.
      if (previous && previous !== ws) previous.terminate();
      this.sessionByClient.set(ws, sessionId);
      this.clientBySession.set(sessionId, ws);
      ws.on('error', (e) => this.logger.warn(`box ${sessionId}: ${e.message}`));
      this.server.emit('connection', ws, req);
    });
  }
}
