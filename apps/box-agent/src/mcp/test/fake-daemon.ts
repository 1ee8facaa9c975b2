import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDomainError } from '@sessionboxer/domain';
import { e2eDouble } from '@sessionboxer/mcp-adapters/e2e/test/recording-e2e-handlers';
import type { RecordingHandlers } from '@sessionboxer/mcp-adapters/kit/test/recording-handlers';
import { sessionboxerDouble } from '@sessionboxer/mcp-adapters/sessionboxer/test/recording-handlers';

/**
 * A real HTTP server answering POST /sessionboxer and POST /e2e the way the box's daemon does:
 * it runs the call as the control plane would (the registry's parser, then the handler of a
 * test double generated from the registry) and answers `{ ok: true, result }` or `{ ok: false, error: { code, message } }`.
 */
export interface FakeDaemon {
  url: string;
  /** The bodies posted to /sessionboxer, in order. */
  posts: { tool: string; args: Record<string, unknown>; callId: string }[];
  /** The bodies posted to /e2e, in order. */
  e2ePosts: { tool: string; args: Record<string, unknown>; callId: string }[];
  /** 'answer' (the default), 'html' (a proxy's error page) or 'silent' (never answers). */
  mode: 'answer' | 'html' | 'silent';
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

async function answer(run: () => Promise<unknown>) {
  try {
    return { ok: true, result: await run() };
  } catch (e) {
    if (!isDomainError(e)) throw e;
    return { ok: false, error: { code: e.code, message: e.message } };
  }
}

export async function startFakeDaemon(
  sessionboxer: RecordingHandlers = sessionboxerDouble(),
  e2e: RecordingHandlers = e2eDouble(),
): Promise<FakeDaemon> {
  const daemon: FakeDaemon = {
    url: '',
    posts: [],
    e2ePosts: [],
    mode: 'answer',
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const known = req.url === '/sessionboxer' || req.url === '/e2e';
      if (req.method !== 'POST' || !known) return send(res, 404, {});
      const post = JSON.parse(await body(req)) as FakeDaemon['posts'][number];
      const isE2e = req.url === '/e2e';
      (isE2e ? daemon.e2ePosts : daemon.posts).push(post);
      if (daemon.mode === 'silent') return;
      if (daemon.mode === 'html') {
        res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>502 Bad Gateway</h1>');
        return;
      }
      const double = isE2e ? e2e : sessionboxer;
      const run = () => double.call(post.tool, post.args);
      send(res, 200, await answer(run));
    })();
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  daemon.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  daemon.close = () => {
    server.closeAllConnections();
    return new Promise((done) => server.close(() => done()));
  };
  return daemon;
}

/** A URL where nothing listens: a port that was just free. */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return `http://127.0.0.1:${port}`;
}
