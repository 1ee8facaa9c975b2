import * as net from 'node:net';
import * as path from 'node:path';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DESKTOP_VIEW } from '@sessionboxer/mcp-adapters/bridge/desktop-view';
import { BoxFolderServers, BoxSocketFolders, type BoxSocketFolderHook } from '../boxes';

const HEADER_TIMEOUT_MS = 5_000;

interface Expected {
  resolve(socket: net.Socket): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * Every box's `desktop-view.sock`, beside its gateway socket and opened and closed with it.
 * A connection names the view it carries in its first line; it is taken only for a view this
 * control plane asked that same box for (the socket it arrived on says which box), once.
 */
@Injectable()
export class DesktopViewSockets implements BoxSocketFolderHook, OnModuleInit {
  private readonly logger = new Logger('DesktopView');
  private readonly servers = new BoxFolderServers<net.Server>(
    path.posix.basename(DESKTOP_VIEW.socket),
  );
  private readonly expected = new Map<string, Expected>();

  constructor(private readonly folders: BoxSocketFolders) {}

  onModuleInit(): void {
    this.folders.register(this);
  }

  async opened(sessionId: string, folder: string): Promise<void> {
    await this.servers.open(sessionId, folder, () => {
      const server = net.createServer((socket) => this.arrived(sessionId, socket));
      server.on('error', (e) =>
        this.logger.warn(`desktop view socket of ${sessionId}: ${e.message}`),
      );
      return server;
    });
  }

  async closed(sessionId: string): Promise<void> {
    await this.servers.close(sessionId);
  }

  /** The connection the box will open for `viewId`, within `timeoutMs`. */
  expect(sessionId: string, viewId: string, timeoutMs: number): Promise<net.Socket> {
    const key = `${sessionId}/${viewId}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.expected.delete(key);
        reject(new Error(`the box did not open the view's connection within ${timeoutMs} ms`));
      }, timeoutMs);
      this.expected.set(key, { resolve, reject, timer });
    });
  }

  /** Stops waiting for a view's connection (its browser left first). */
  forget(sessionId: string, viewId: string): void {
    const key = `${sessionId}/${viewId}`;
    const waiting = this.expected.get(key);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.expected.delete(key);
    waiting.reject(new Error('the view was closed'));
  }

  private arrived(sessionId: string, socket: net.Socket): void {
    let head = Buffer.alloc(0);
    socket.on('error', () => undefined);
    const timer = setTimeout(() => socket.destroy(), HEADER_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const nl = head.indexOf(10);
      if (nl < 0) {
        if (head.length > DESKTOP_VIEW.headerMaxBytes) socket.destroy();
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData);
      socket.pause();
      const rest = head.subarray(nl + 1);
      if (rest.length > 0) socket.unshift(rest);
      const key = `${sessionId}/${head.subarray(0, nl).toString('latin1')}`;
      const waiting = this.expected.get(key);
      if (!waiting) return void socket.destroy();
      this.expected.delete(key);
      clearTimeout(waiting.timer);
      waiting.resolve(socket);
    };
    socket.on('data', onData);
  }
}
