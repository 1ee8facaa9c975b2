/** The live view's socket: the page's own origin, so the sign-in cookie goes with it. */
export function desktopViewUrl(sessionId: string, control: boolean): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = new URLSearchParams({ session: sessionId, control: control ? '1' : '0' });
  return `${scheme}//${location.host}/api/desktop-view?${query}`;
}

/** What the page says when the control plane closed the view (its close codes, 4000–4999). */
export function closedText(code: number, reason: string): string {
  if (code === 1000 || code === 1005) return 'The live view was closed.';
  if (code >= 4000 && reason) return `The live view closed: ${reason}.`;
  return 'The live view was cut off (the network, or the control plane restarted).';
}
