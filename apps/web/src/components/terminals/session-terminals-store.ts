import type {
  SessionTerminalOutputFrame,
  TerminalOutputPage,
  UiErrorFrame,
} from '@sessionboxer/contracts';
import { get } from '../../api';
import { live } from '../../live';
import { bytesOf, type XtermSource } from './LiveXterm';

/**
 * The box Terminals' live side: `session.terminal.output` frames go to the panes that
 * listen, a refused keystroke or resize (an `error` frame naming a Terminal) to that
 * Terminal's pane, and each pane's keys and size go out over the socket.
 */
const outputListeners = new Set<(frame: SessionTerminalOutputFrame) => void>();
const refusalListeners = new Set<(refusal: UiErrorFrame) => void>();

/** The socket's frames are at most 1 MiB: a long paste goes as several. */
const INPUT_CHUNK = 16 * 1024;

export function applySessionTerminalOutput(frame: SessionTerminalOutputFrame): void {
  for (const l of outputListeners) l(frame);
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

function chunks(data: string): string[] {
  const parts: string[] = [];
  for (let at = 0; at < data.length;) {
    let end = Math.min(data.length, at + INPUT_CHUNK);
    // Never split a surrogate pair: the server refuses a lone surrogate.
    if (end < data.length && /[\uD800-\uDBFF]/.test(data[end - 1])) end -= 1;
    parts.push(data.slice(at, end));
    at = end;
  }
  return parts;
}

/** A box Terminal of a session: pages of its recorded bytes, its frames, its keys and size. */
export function boxTerminalSource(sessionId: string, terminalId: string): XtermSource {
  const base = `/api/sessions/${sessionId}/terminals/${encodeURIComponent(terminalId)}`;
  return {
    page: async (after) => {
      const page = await get<TerminalOutputPage>(`${base}/output?afterOffset=${after}`);
      return { ...page, data: bytesOf(page.data) };
    },
    subscribe: (listener) => {
      const l = (f: SessionTerminalOutputFrame) => {
        if (f.sessionId === sessionId && f.terminalId === terminalId) {
          listener(f.offset, bytesOf(f.data));
        }
      };
      outputListeners.add(l);
      return () => outputListeners.delete(l);
    },
    input: (data) => {
      for (const part of chunks(data)) {
        live.send({ event: 'session.terminal.input', data: { sessionId, terminalId, data: part } });
      }
    },
    resize: (cols, rows) =>
      live.send({ event: 'session.terminal.resize', data: { sessionId, terminalId, cols, rows } }),
  };
}
