import type { SessionTerminalOutputFrame, TerminalOutputPage } from '@sessionboxer/contracts';
import { get } from '../../api';
import { live } from '../../live';
import { bytesOf, type XtermSource } from './LiveXterm';
import { onSessionTerminalOutput } from './session-terminal-frames';

/**
 * The box Terminals' live side: each pane's keys and size go out over the socket; frames come
 * in through session-terminal-frames.ts (which the socket's module imports without a cycle).
 */
/** The socket's frames are at most 1 MiB: a long paste goes as several. */
const INPUT_CHUNK = 16 * 1024;

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
      return onSessionTerminalOutput(l);
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
