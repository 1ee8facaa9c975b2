import type * as http from 'node:http';

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The headers to send on: without the hop-by-hop ones, those the Connection header names, and
 * every Proxy-* header (the box's proxy credentials, if any, are for this proxy alone). With
 * `host`, the Host header is set to it (the absolute-form URL's authority wins).
 */
export function forwardHeaders(
  headers: http.IncomingHttpHeaders,
  host?: string,
): http.OutgoingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== ''),
  );
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    if (name.startsWith('proxy-')) continue;
    out[name] = value;
  }
  if (host !== undefined) out.host = host;
  return out;
}
