import type { IncomingHttpHeaders } from 'node:http';

export const SESSION_COOKIE = 'sb_session';

/** The token a request carries: `Authorization: Bearer …` for programs, the cookie for browsers. */
export function tokenOf(headers: IncomingHttpHeaders): string | null {
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)$/i.exec(auth.trim());
    if (m) return m[1];
  }
  const cookie = headers.cookie;
  if (typeof cookie !== 'string') return null;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value.length > 0 ? value : null;
    }
  }
  return null;
}

/**
 * A browser's request from another site's page: its Origin names another host. Cookies are
 * SameSite=Strict already; this also refuses cross-site WebSocket handshakes and writes from
 * browsers that send cookies more loosely. Programs send no Origin and pass.
 */
export function crossSite(headers: IncomingHttpHeaders, publicUrl?: string): boolean {
  const origin = headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return origin === 'null';
  try {
    const from = new URL(origin);
    // Behind a proxy that rewrites Host, the page's origin is the public URL's.
    if (publicUrl && from.origin === new URL(publicUrl).origin) return false;
    return from.host !== headers.host;
  } catch {
    return true;
  }
}

export function sessionCookie(token: string, secure: boolean, maxAgeSeconds: number): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
