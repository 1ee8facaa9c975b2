import type { Request, Response } from 'express';

/**
 * CORS for a token's browser pages (sandbox_create_token's origins). A preflight carries no
 * Authorization, so it cannot be checked against a token: it is answered for any Origin,
 * and the request that follows is checked (a token's origins, or the installation's own for
 * an API key), and only an allowed Origin gets Access-Control-Allow-Origin on the answer.
 */
export function answerPreflight(req: Request, res: Response): boolean {
  const origin = req.headers.origin;
  if (req.method !== 'OPTIONS' || origin === undefined) return false;
  if (req.headers['access-control-request-method'] === undefined) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE');
  res.setHeader(
    'Access-Control-Allow-Headers',
    'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  );
  res.setHeader('Access-Control-Max-Age', '600');
  res.status(204).end();
  return true;
}

/** An allowed browser page may read the answer. */
export function allowOrigin(res: Response, origin: string | undefined): void {
  if (origin === undefined) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Expose-Headers', 'mcp-session-id, mcp-protocol-version');
}
