import type { SessionTerminalOutputFrame, UiErrorFrame } from '@sessionboxer/contracts';

/**
 * Where the socket's box-Terminal frames go: `session.terminal.output` to the panes that
 * listen, a refused keystroke or resize (an `error` frame naming a Terminal) to that
 * Terminal's pane. Imports nothing of the page, so live.ts can import it.
 */
const outputListeners = new Set<(frame: SessionTerminalOutputFrame) => void>();
const refusalListeners = new Set<(refusal: UiErrorFrame) => void>();

export function applySessionTerminalOutput(frame: SessionTerminalOutputFrame): void {
  for (const l of outputListeners) l(frame);
}

export function onSessionTerminalOutput(
  l: (frame: SessionTerminalOutputFrame) => void,
): () => void {
  outputListeners.add(l);
  return () => outputListeners.delete(l);
}

/** Whether the `error` frame was about a Terminal (and so shown in its pane). */
export function applyTerminalRefusal(refusal: UiErrorFrame): boolean {
  if (refusal.terminalId === undefined) return false;
  for (const l of refusalListeners) l(refusal);
  return true;
}

export function onTerminalRefused(terminalId: string, l: (message: string) => void): () => void {
  const listener = (r: UiErrorFrame) => {
    if (r.terminalId === terminalId) l(r.message);
  };
  refusalListeners.add(listener);
  return () => refusalListeners.delete(listener);
}
