import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import { z } from 'zod';
import {
  callFrame,
  type CallFrame,
  type CallResult,
} from '@sessionboxer/mcp-adapters/bridge/protocol';
import { BridgeError } from '../gateway/errors';
import { describeIssues } from '../gateway/frames';
import { errorMessage, type Log } from '../log';
import { BodyTooLarge, readBody } from './read-body';

export interface Bridge {
  readonly connected: boolean;
  call(frame: CallFrame): Promise<CallResult>;
}

/** What the MCP servers post; `callId` lets them retry a request without doubling the call. */
const callBody = z
  .object({
    tool: callFrame.shape.tool,
    args: callFrame.shape.args,
    callId: callFrame.shape.callId.optional(),
  })
  .strict();

/** The gateway's maxPayload: a bigger frame would make it drop the connection on every resend. */
export const MAX_CALL_FRAME_BYTES = 1024 * 1024;

const ROUTES: Record<string, CallFrame['route']> = {
  '/sessionboxer': 'sessionboxer',
  '/e2e': 'e2e',
  // What the desktop server reports (a finished recording), not tools the agent calls.
  '/desktop': 'desktop',
  // Messages of the relay processes: MCP connections to the registry's outside servers.
  '/relay': 'relay',
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendError(res: http.ServerResponse, status: number, code: string, message: string): void {
  send(res, status, { ok: false, error: { code, message } });
}

/**
 * Browsers send Origin (and Sec-Fetch-Site) on every POST; the MCP servers' fetch sends neither
 * (it does send Sec-Fetch-Mode, so that one proves nothing). Refusing browsers keeps a page open
 * in the box's browser from acting as the session.
 */
function fromBrowser(req: http.IncomingMessage): boolean {
  return req.headers.origin !== undefined || req.headers['sec-fetch-site'] !== undefined;
}

async function parseCall(req: http.IncomingMessage, route: CallFrame['route']): Promise<CallFrame> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readBody(req));
  } catch (e) {
    if (e instanceof BodyTooLarge) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', e.message);
    const why = e instanceof SyntaxError ? 'the body is not JSON' : 'could not read the body';
    throw new HttpError(400, 'VALIDATION_FAILED', `${why}: ${errorMessage(e)}`);
  }
  const parsed = callBody.safeParse(raw);
  if (!parsed.success) {
    const expected = 'expected { "tool": string, "args"?: object, "callId"?: string }';
    throw new HttpError(400, 'VALIDATION_FAILED', `${describeIssues(parsed.error)} (${expected})`);
  }
  const { tool, args, callId } = parsed.data;
  const frame: CallFrame = { callId: callId ?? randomUUID(), route, tool, args };
  const framed = Buffer.byteLength(JSON.stringify({ event: 'call', data: frame }));
  if (framed > MAX_CALL_FRAME_BYTES) {
    const message = `the call is ${framed} bytes once framed, over the gateway's ${MAX_CALL_FRAME_BYTES}`;
    throw new HttpError(413, 'PAYLOAD_TOO_LARGE', message);
  }
  return frame;
}

async function handleCall(
  bridge: Bridge,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  route: CallFrame['route'],
): Promise<void> {
  const frame = await parseCall(req, route);
  try {
    const answer = await bridge.call(frame);
    // A tool's own refusal is an answer too: HTTP 200, ok false.
    if (answer.ok) send(res, 200, { ok: true, result: answer.result });
    else send(res, 200, { ok: false, error: answer.error });
  } catch (e) {
    if (e instanceof BridgeError) throw new HttpError(e.httpStatus, e.code, e.message);
    throw e;
  }
}

function pathOf(req: http.IncomingMessage): string {
  const url = req.url ?? '/';
  return URL.canParse(url, 'http://daemon') ? new URL(url, 'http://daemon').pathname : url;
}

async function route(bridge: Bridge, req: http.IncomingMessage, res: http.ServerResponse) {
  const pathname = pathOf(req);
  const callRoute = ROUTES[pathname];
  if (callRoute !== undefined) {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${pathname} takes POST`);
    }
    if (fromBrowser(req)) {
      throw new HttpError(403, 'FORBIDDEN', 'requests from a browser are refused');
    }
    return handleCall(bridge, req, res, callRoute);
  }
  if (pathname === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
    return send(res, 200, { connected: bridge.connected });
  }
  throw new HttpError(
    404,
    'NOT_FOUND',
    `no such path: ${pathname} (POST /sessionboxer, POST /e2e, POST /desktop, POST /relay, GET /health)`,
  );
}

/** The daemon's HTTP side: what the stdio MCP servers in the box post their tool calls to. */
export function createHttpServer(bridge: Bridge, log: Log): http.Server {
  const server = http.createServer((req, res) => {
    route(bridge, req, res).catch((e: unknown) => {
      if (e instanceof HttpError) return sendError(res, e.status, e.code, e.message);
      log.error(
        `${req.method} ${req.url}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      );
      sendError(res, 500, 'INTERNAL', `the box daemon failed: ${errorMessage(e)}`);
    });
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  return server;
}
