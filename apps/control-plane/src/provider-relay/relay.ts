import * as http from 'node:http';
import * as https from 'node:https';
import { forwardHeaders } from '../common/hop-headers';

/** Where one provider's requests go and the headers that carry its credential. */
export interface ProviderTarget {
  /** For messages: "Anthropic", "OpenAI". */
  provider: string;
  /** The provider's base URL from settings (https://api.anthropic.com, or a double's). */
  baseUrl: string;
  /** The credential's headers, added outside the box; null when none is set. */
  auth: Record<string, string> | null;
}

/**
 * Never taken from the box: its placeholder credential, and the Host of the edge (the provider
 * URL's own is sent). Hop-by-hop and Proxy-* headers go by the egress module's one rule.
 */
const DROPPED = ['authorization', 'x-api-key', 'host'];

/** Headers whose values add up (anthropic-beta is a comma-separated list). */
const LISTS = new Set(['anthropic-beta']);

function outgoingHeaders(req: http.IncomingMessage, auth: Record<string, string>) {
  const headers = forwardHeaders(req.headers);
  for (const name of DROPPED) delete headers[name];
  for (const [name, value] of Object.entries(auth)) {
    const had = headers[name];
    const before = Array.isArray(had) ? had.join(',') : typeof had === 'string' ? had : '';
    const items = before === '' ? [] : before.split(',').map((v) => v.trim());
    headers[name] = LISTS.has(name) ? [...new Set([...items, value])].join(',') : value;
  }
  return headers;
}

/** An answer in the Anthropic and OpenAI error shape, which both CLIs show as they are. */
function fail(res: http.ServerResponse, status: number, type: string, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ type: 'error', error: { type, message } });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * Relays one request of a box's agent CLI to its model provider: the box's own
 * `x-api-key` / `authorization` (a placeholder) are dropped and the real credential's headers
 * added here, outside the box; the body streams up and the answer (SSE) streams back chunk by
 * chunk, unbuffered. `subPath` is the path after the route's prefix (`/v1/messages?beta=true`).
 */
export function relayToProvider(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  subPath: string,
  target: ProviderTarget,
): void {
  if (!subPath.startsWith('/') || subPath.startsWith('//')) {
    return fail(
      res,
      400,
      'invalid_request_error',
      `the provider relay needs a path, got ${JSON.stringify(subPath)}`,
    );
  }
  if (target.auth === null) {
    req.resume();
    return fail(
      res,
      401,
      'authentication_error',
      `no ${target.provider} credential is set: set one under credentials in Sessionboxer's settings`,
    );
  }
  const url = new URL(target.baseUrl + subPath);
  const client = url.protocol === 'https:' ? https : http;
  const upstream = client.request(url, {
    method: req.method,
    headers: outgoingHeaders(req, target.auth),
  });
  upstream.on('response', (answer) => {
    // The answer's hop-by-hop headers are the relay's own connection's, which Node writes itself.
    res.writeHead(answer.statusCode ?? 502, forwardHeaders(answer.headers));
    res.flushHeaders();
    // pipe writes each chunk as it comes (an SSE event is never held back) and waits for a slow box.
    answer.pipe(res);
    answer.on('error', () => res.destroy());
  });
  upstream.on('error', (e: NodeJS.ErrnoException) =>
    fail(
      res,
      502,
      'api_error',
      `the provider relay could not reach ${target.provider} at ${url.host} (${e.code ?? e.message})`,
    ),
  );
  // The CLI gave up (an interrupt, a kill): so does the request to the provider.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.on('error', () => upstream.destroy());
  req.pipe(upstream);
}
