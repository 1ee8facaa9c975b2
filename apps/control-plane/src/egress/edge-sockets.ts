import type * as http from 'node:http';
import * as path from 'node:path';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { BOX_EDGE } from '@sessionboxer/mcp-adapters';
import { BoxFolderServers, BoxSocketFolders, type BoxSocketFolderHook } from '../boxes';
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
  private readonly servers = new BoxFolderServers<http.Server>(EDGE_SOCKET_NAME, closeEdgeServer);

  constructor(
    private readonly folders: BoxSocketFolders,
    private readonly routes: EdgeRoutes,
    @Inject(EDGE_PROXY) private readonly proxy: EdgeProxy,
  ) {}

  onModuleInit(): void {
    this.folders.register(this);
  }

  async opened(sessionId: string, folder: string): Promise<void> {
    await this.servers.open(sessionId, folder, () => {
      const server = createEdgeServer({ sessionId }, this.routes, this.proxy, this.logger);
      server.on('error', (e) => this.logger.warn(`edge of ${sessionId}: ${e.message}`));
      return server;
    });
  }

  async closed(sessionId: string): Promise<void> {
    await this.servers.close(sessionId);
  }

  isOpen(sessionId: string): boolean {
    return this.servers.has(sessionId);
  }
}
