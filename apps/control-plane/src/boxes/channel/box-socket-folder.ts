import * as fs from 'node:fs';
import type * as net from 'node:net';
import * as path from 'node:path';
import { Injectable } from '@nestjs/common';

/**
 * Binds `server` to the Unix socket `socketPath` (replacing a stale file from an earlier run),
 * 0600 and owned like its folder, so the box's root (a host uid of its own) can connect.
 * Bound through a descriptor of its folder, so the address the kernel keeps (and a box reads
 * in /proc/net/unix) is /proc/self/fd/N/<name>, never the host path. Returns that descriptor:
 * it stays open while the socket does (closing the server unlinks that same address), and the
 * caller closes it after the server.
 */
export async function bindInBoxFolder(server: net.Server, socketPath: string): Promise<number> {
  fs.rmSync(socketPath, { force: true });
  const dirFd = fs.openSync(path.dirname(socketPath), 'r');
  try {
    const address = `/proc/self/fd/${dirFd}/${path.basename(socketPath)}`;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(address, () => {
        server.off('error', reject);
        resolve();
      });
    });
    fs.chmodSync(socketPath, 0o600);
    const owner = fs.lstatSync(path.dirname(socketPath));
    fs.lchownSync(socketPath, owner.uid, owner.gid);
  } catch (e) {
    server.close();
    fs.closeSync(dirFd);
    throw e;
  }
  return dirFd;
}

/** Told when a box's socket folder (its `run` folder, mounted at /run/sessionboxer) opens. */
export interface BoxSocketFolderHook {
  /** Awaited before the box's gateway socket counts as open. */
  opened(sessionId: string, folder: string): Promise<void>;
  closed(sessionId: string): Promise<void>;
}

/**
 * Lets other modules open sockets of their own beside a box's gateway socket, opened and
 * closed with it, without the boxes module knowing them (a module registers in onModuleInit).
 */
@Injectable()
export class BoxSocketFolders {
  private readonly hooks: BoxSocketFolderHook[] = [];

  register(hook: BoxSocketFolderHook): void {
    this.hooks.push(hook);
  }

  async opened(sessionId: string, folder: string): Promise<void> {
    for (const hook of this.hooks) await hook.opened(sessionId, folder);
  }

  async closed(sessionId: string): Promise<void> {
    await Promise.all(this.hooks.map((hook) => hook.closed(sessionId)));
  }
}

/**
 * One server per box on a socket named `name` in the box's socket folder: bound with
 * bindInBoxFolder when the folder opens, closed (then its folder descriptor) when it closes.
 */
export class BoxFolderServers<S extends net.Server> {
  private readonly servers = new Map<string, { server: S; dirFd: number }>();

  constructor(
    private readonly name: string,
    private readonly closeServer: (server: S) => Promise<void> = (server) =>
      new Promise((resolve) => server.close(() => resolve())),
  ) {}

  async open(sessionId: string, folder: string, make: () => S): Promise<void> {
    if (this.servers.has(sessionId)) return;
    const server = make();
    const dirFd = await bindInBoxFolder(server, path.join(folder, this.name));
    this.servers.set(sessionId, { server, dirFd });
  }

  async close(sessionId: string): Promise<void> {
    const open = this.servers.get(sessionId);
    if (!open) return;
    this.servers.delete(sessionId);
    await this.closeServer(open.server);
    fs.closeSync(open.dirFd);
  }

  has(sessionId: string): boolean {
    return this.servers.has(sessionId);
  }
}
