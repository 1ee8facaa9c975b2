/** Which box's desktop a live view shows: a session's, or a sandbox's (its watch page). */
export type DesktopTarget = { kind: 'session'; id: string } | { kind: 'sandbox'; id: string };

/** The subprotocol of a socket that sends a sandbox token as its first text frame. */
export const TOKEN_PROTOCOL = 'sessionboxer.sandbox-token';

/** The live view's socket: the page's own origin, so the sign-in cookie goes with it. */
export function desktopViewUrl(sessionId: string, control: boolean): string {
  return viewUrl('/api/desktop-view', { session: sessionId, control: control ? '1' : '0' });
}

export function sandboxViewUrl(sandboxId: string, control: boolean): string {
  return viewUrl('/api/sandbox-view', { sandbox: sandboxId, control: control ? '1' : '0' });
}

function viewUrl(path: string, params: Record<string, string>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path}?${new URLSearchParams(params)}`;
}

/**
 * The socket of a view. With a sandbox token the token is the first frame, sent as the
 * socket opens (before noVNC hears the box speak): never in the URL, which logs keep.
 */
export function openDesktopSocket(
  target: DesktopTarget,
  control: boolean,
  token?: string,
): WebSocket {
  if (target.kind === 'session') return new WebSocket(desktopViewUrl(target.id, control));
  const url = sandboxViewUrl(target.id, control);
  if (!token) return new WebSocket(url);
  const socket = new WebSocket(url, [TOKEN_PROTOCOL]);
  socket.addEventListener('open', () => socket.send(token), { once: true });
  return socket;
}

/** What the page says when the control plane closed the view (its close codes, 4000–4999). */
export function closedText(code: number, reason: string): string {
  if (code === 1000 || code === 1005) return 'The live view was closed.';
  if (code >= 4000 && reason) return `The live view closed: ${reason}.`;
  return 'The live view was cut off (the network, or the control plane restarted).';
}
