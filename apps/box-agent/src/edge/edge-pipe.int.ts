import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEdgePipe, type RunningEdgePipe } from './edge-pipe';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Connects to the pipe, writes `bytes`, and resolves with all it read once the pipe ends. */
function exchange(port: number, bytes: Buffer | string, endAfterWrite = true): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    // The pipe closing its side is the end of the exchange (this socket keeps its own open).
    socket.on('end', () => {
      resolve(Buffer.concat(chunks));
      socket.destroy();
    });
    socket.on('error', reject);
    if (endAfterWrite) socket.end(bytes);
    else socket.write(bytes);
  });
}

describe('the daemon edge pipe', () => {
  let dir: string;
  let socketPath: string;
  let edgeServer: net.Server;
  let pipe: RunningEdgePipe;
  const edgeSides: net.Socket[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-pipe-'));
    socketPath = path.join(dir, 'edge.sock');
    // Echoes byte for byte and ends when the box does; `close-now` drops the connection.
    edgeServer = net.createServer({ allowHalfOpen: true }, (socket) => {
      edgeSides.push(socket);
      socket.on('data', (d: Buffer) => {
        if (d.toString() === 'close-now') socket.destroy();
        else socket.write(d);
      });
      socket.on('end', () => socket.end());
    });
    await new Promise<void>((resolve) => edgeServer.listen(socketPath, resolve));
    pipe = await startEdgePipe({ host: '127.0.0.1', port: 0, socketPath, log: quiet });
  });
  afterAll(async () => {
    await pipe.close();
    await new Promise((resolve) => edgeServer.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('carries every byte both ways, including after the box half-closes', async () => {
    const bytes = Buffer.alloc(4 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + 3) % 256;
    const back = await exchange(pipe.port, bytes);
    expect(back.equals(bytes)).toBe(true);
  });

  it('closes the box side when the edge side closes', async () => {
    const back = await exchange(pipe.port, 'close-now', false);
    expect(back.length).toBe(0);
  });

  it('closes the edge side when the box side goes away', async () => {
    const before = edgeSides.length;
    const socket = net.connect({ port: pipe.port, host: '127.0.0.1' });
    await new Promise((resolve) => socket.once('connect', resolve));
    while (edgeSides.length === before) await new Promise((r) => setTimeout(r, 10));
    const edgeSide = edgeSides[edgeSides.length - 1];
    const closed = new Promise((resolve) => edgeSide.once('close', resolve));
    socket.destroy();
    await closed;
    expect(edgeSide.destroyed).toBe(true);
  });

  it('answers 502 with a clear line when the edge socket refuses', async () => {
    const other = await startEdgePipe({
      host: '127.0.0.1',
      port: 0,
      socketPath: path.join(dir, 'missing.sock'),
      log: quiet,
    });
    try {
      const reply = (await exchange(other.port, 'GET / HTTP/1.1\r\n\r\n')).toString();
      expect(reply).toMatch(/^HTTP\/1.1 502 Bad Gateway\r\n/);
      expect(reply).toContain("the box's edge is unreachable (ENOENT)");
    } finally {
      await other.close();
    }
  });
});
