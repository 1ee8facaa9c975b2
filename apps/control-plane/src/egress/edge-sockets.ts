import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { BOX_EDGE } from '@sessionboxer/mcp-adapters';
import { bindInBoxFolder, BoxSocketFolders, type BoxSocketFolderHook } from '../boxes';
import { EdgeRoutes } from './edge-routes';
import { closeEdgeServer, createEdgeServer, type EdgeProxy } from './edge-server';

export const EDGE_PROXY = Symbol('EdgeProxy');

/** The edge socket's name in a box's socket folder (`/run/sessionboxer/edge.sock` in the box). */
export const EDGE_SOCKET_NAME = path.posix.basename(BOX_EDGE.socket);

/**
 * Every box's `edge.sock`, beside its gateway socket and opened and closed with it (the boxes
 * module's socket-folder hook): the one way out of a box.
 */
@Injectable()
export class EdgeSockets implements BoxSocketFolderHook, OnModuleInit {
  private readonly logger = new Logger('Edge');
  private readonly open = new Map<string, { server: http.Server; dirFd: number }>();

  constructor(
    private readonly folders: BoxSocketFolders,
    private readonly routes: EdgeRoutes,
    @Inject(EDGE_PROXY) private readonly proxy: EdgeProxy,
  ) {}

  onModuleInit(): void {
    this.folders.register(this);
  }

  async opened(sessionId: string, folder: string): Promise<void> {
    if (this.open.has(sessionId)) return;
    const server = createEdgeServer({ sessionId }, this.routes, this.proxy, this.logger);
    server.on('error', (e) => this.logger.warn(`edge of ${sessionId}: ${e.message}`));
    const dirFd = await bindInBoxFolder(server, path.join(folder, EDGE_SOCKET_NAME));
    this.open.set(sessionId, { server, dirFd });
  }

  async closed(sessionId: string): Promise<void> {
    const edge = this.open.get(sessionId);
    if (!edge) return;
    this.open.delete(sessionId);
    await closeEdgeServer(edge.server);
    fs.closeSync(edge.dirFd);
  }

  isOpen(sessionId: string): boolean {
    return this.open.has(sessionId);
  }
}
