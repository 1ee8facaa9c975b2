import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import { WebSocketServer, type WebSocket } from 'ws';
import { JSON_MAX_BYTES } from '../../errors/json-policy';
import { bindInBoxFolder, BoxSocketFolders } from './box-socket-folder';

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

  constructor(private readonly folders: BoxSocketFolders) {}

  /** Opens the box's socket at `socketPath`, and the sockets registered beside it. */
  async listen(sessionId: string, socketPath: string): Promise<void> {
    if (this.listeners.has(sessionId)) return;
    const listener = http.createServer((_, res) => res.writeHead(426).end('WebSocket only\n'));
    listener.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(sessionId, req, socket, head),
    );
    const dirFd = await bindInBoxFolder(listener, socketPath);
    this.listeners.set(sessionId, { server: listener, dirFd });
    await this.folders.opened(sessionId, path.dirname(socketPath));
  }

  sessionOf(client: WebSocket): string | undefined {
    return this.sessionByClient.get(client);
  }

  clientOf(sessionId: string): WebSocket | undefined {
    return this.clientBySession.get(sessionId);
  }

  /** The sessions with a daemon connection. */
  sessions(): string[] {
    return [...this.clientBySession.keys()];
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
    await this.folders.closed(sessionId);
    if (!listener) return;
    // close() waits for every connection: one that arrived as the box closes (a daemon that
    // connects while the control plane shuts down) is ended here, not waited for.
    await new Promise<void>((resolve) => {
      listener.server.close(() => resolve());
      listener.server.closeAllConnections();
    });
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
      // Its socket closed while the handshake ran: nobody would ever end this connection.
      if (!this.listeners.has(sessionId)) return void ws.terminate();
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
