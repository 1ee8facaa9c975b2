import * as http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@nestjs/common';
import { BOX_EDGE } from '@sessionboxer/mcp-adapters';
import { answer, answerSocket } from './edge-answers';
import type { EdgeCaller, EdgeRoutes } from './edge-routes';

/** What the edge does with proxy requests (the egress proxy). */
export interface EdgeProxy {
  /** `CONNECT host:port`: decide, then tunnel the socket or answer it. */
  tunnel(caller: EdgeCaller, authority: string, socket: Duplex, head: Buffer): void;
  /** An absolute-form request to another host (`GET http://host/…`). */
  forward(caller: EdgeCaller, req: http.IncomingMessage, res: http.ServerResponse, url: URL): void;
}

/** Headers of one request, in bytes (Node's default is 16 KiB too; written here to be sure). */
export const EDGE_MAX_HEADER_BYTES = 16 * 1024;
const HEADERS_TIMEOUT_MS = 15_000;
/** Bytes buffered per direction before a pipe waits (Node's 16 KiB halves a download). */
export const EDGE_BUFFER_BYTES = 256 * 1024;
/** Open connections of one box's edge at once (tunnels included): with its buffers, at most ~256 MiB. */
export const EDGE_MAX_CONNECTIONS = 512;

/** The edge's own address as the box sees it: a proxy request to it is a request to a route. */
const OWN_HOSTS = new Set([
  `127.0.0.1:${BOX_EDGE.port}`,
  `localhost:${BOX_EDGE.port}`,
  `[::1]:${BOX_EDGE.port}`,
]);

/**
 * One box's edge server: the socket it listens on says which session every request is from
 * (nothing in a request can change it). Origin-form requests go to the route registry,
 * `CONNECT` and absolute-form requests to the egress proxy; whatever arrives, the box gets an
 * answer that says what was wrong and the server goes on.
 */
export function createEdgeServer(
  caller: EdgeCaller,
  routes: EdgeRoutes,
  proxy: EdgeProxy,
  logger: Logger,
): http.Server {
  const server = http.createServer({
    maxHeaderSize: EDGE_MAX_HEADER_BYTES,
    headersTimeout: HEADERS_TIMEOUT_MS,
    // Bodies stream through (a git push, a long model answer): no bound on the whole request.
    requestTimeout: 0,
    // The edge reads the target from the request line, never from Host.
    requireHostHeader: false,
    highWaterMark: EDGE_BUFFER_BYTES,
  });
  // A client that half-closes after its request (the daemon's pipe passes a FIN on) still gets
  // its answer; Node's default would drop it.
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // One box cannot take all of the control plane's descriptors.
  server.maxConnections = EDGE_MAX_CONNECTIONS;
  const open = new Set<Duplex>();
  server.on('connection', (socket: Duplex) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  connections.set(server, open);
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    req.on('error', () => res.destroy());
    res.on('error', () => res.destroy());
    try {
      dispatch(caller, routes, proxy, req, res, logger);
    } catch (e) {
      logger.warn(`edge of ${caller.sessionId}: ${String(e)}`);
      answer(res, 500, 'the edge failed on this request');
    }
  });
  server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    try {
      proxy.tunnel(caller, req.url ?? '', socket, head);
    } catch (e) {
      logger.warn(`edge of ${caller.sessionId}: ${String(e)}`);
      answerSocket(socket, 500, 'the edge failed on this CONNECT');
    }
  });
  server.on('clientError', (e: NodeJS.ErrnoException, socket: Duplex) => {
    const status = e.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    answerSocket(socket, status, `malformed HTTP request (${e.code ?? e.message})`);
  });
  // An upgrade (WebSocket) through the edge is not a thing it offers.
  server.on('upgrade', (_req: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    answerSocket(socket, 400, 'the edge does not upgrade connections: use CONNECT for a tunnel');
  });
  return server;
}

/** Every connection of an edge server, tunnels too (the HTTP server stops tracking those). */
const connections = new WeakMap<http.Server, Set<Duplex>>();

/** Stops listening and ends every connection, tunnels included, so closing never waits. */
export function closeEdgeServer(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    for (const socket of connections.get(server) ?? []) socket.destroy();
  });
}

function dispatch(
  caller: EdgeCaller,
  routes: EdgeRoutes,
  proxy: EdgeProxy,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  logger: Logger,
): void {
  const target = req.url ?? '';
  let path = target;
  if (!target.startsWith('/')) {
    if (/^https:\/\//i.test(target)) {
      return answer(
        res,
        400,
        'an https:// URL goes through the proxy as CONNECT host:443, not as a request',
      );
    }
    const url = absolute(target);
    if (!url)
      return answer(res, 400, `malformed request target ${JSON.stringify(target.slice(0, 200))}`);
    if (!OWN_HOSTS.has(url.host)) return proxy.forward(caller, req, res, url);
    path = `${url.pathname}${url.search}`;
  }
  const route = routes.match(path);
  if (!route) {
    const known = routes.prefixes().join(', ') || 'none';
    return answer(res, 404, `no edge route for ${path.split('?')[0]} (routes: ${known})`);
  }
  Promise.resolve()
    .then(() => route.handler(req, res, caller, route.subPath))
    .catch((e: unknown) => {
      logger.warn(`edge route ${path.split('?')[0]} of ${caller.sessionId}: ${String(e)}`);
      answer(res, 502, 'the edge route failed on this request');
    });
}

function absolute(target: string): URL | null {
  if (!/^http:\/\//i.test(target)) return null;
  try {
    const url = new URL(target);
    return url.hostname ? url : null;
  } catch {
    return null;
  }
}
