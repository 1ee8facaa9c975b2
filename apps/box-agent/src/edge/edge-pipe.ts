import * as net from 'node:net';
import { errorMessage, type Log } from '../log';

export interface EdgePipeOptions {
  host: string;
  /** BOX_EDGE.port in a box; 0 picks a free port (tests, unisolated boxes). */
  port: number;
  /** The box's edge socket (BOX_EDGE.socket), where the control plane's edge server listens. */
  socketPath: string;
  log: Log;
}

export interface RunningEdgePipe {
  port: number;
  close(): Promise<void>;
}

/**
 * Bytes buffered per direction before the pipe waits: with Node's 16 KiB every 64 KiB read
 * pauses the other side once, which halves a download's speed.
 */
const PIPE_BUFFER = 256 * 1024;

const refused = (why: string): string => {
  const body = `the box's edge is unreachable (${why}): nothing outside the box can be reached now\n`;
  return (
    'HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain; charset=utf-8\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
};

/**
 * The box's one way out: every TCP connection to host:port is piped, byte for byte, to a new
 * connection on the edge socket; the control plane's edge server reads it (proxy requests,
 * relays). Closing either side closes the other; the daemon reads nothing of what passes.
 */
export async function startEdgePipe(options: EdgePipeOptions): Promise<RunningEdgePipe> {
  const open = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: true, highWaterMark: PIPE_BUFFER }, (client) => {
    open.add(client);
    client.pause();
    // Node takes the buffer size from the socket's options, though its types leave it out.
    const edge = net.connect({
      path: options.socketPath,
      allowHalfOpen: true,
      highWaterMark: PIPE_BUFFER,
    } as net.NetConnectOpts);
    open.add(edge);
    let connected = false;
    edge.once('connect', () => {
      connected = true;
      client.pipe(edge);
      edge.pipe(client);
      client.resume();
    });
    edge.on('error', (e: NodeJS.ErrnoException) => {
      if (connected) return client.destroy();
      options.log.warn(`edge: ${options.socketPath}: ${errorMessage(e)}`);
      client.end(refused(e.code ?? errorMessage(e)));
    });
    client.on('error', () => edge.destroy());
    client.on('close', () => {
      open.delete(client);
      edge.destroy();
    });
    // The edge's end is piped on: once the box has what was queued for it, both close (even
    // if the box never half-closed its own side).
    edge.on('end', () => client.once('finish', () => client.destroy()));
    edge.on('close', () => {
      open.delete(edge);
      if (connected && !edge.readableEnded) client.destroy();
    });
  });
  server.on('error', (e) => options.log.error(`edge: ${errorMessage(e)}`));
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
