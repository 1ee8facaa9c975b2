import type { RecordedEvent } from '@sessionboxer/event-store';
import type { TerminalOpened, TerminalOutputRecorded } from '@sessionboxer/domain';

/** The PTY size the box's daemon opens every Terminal with. */
const WIDTH = 120;
const HEIGHT = 30;

/**
 * A Terminal of the session as an asciicast v2 recording (what asciinema plays): a header line,
 * then one `[seconds, "o", text]` line per recorded batch, timed from the Terminal's opening.
 * The bytes are decoded as one UTF-8 stream, so a character split across two batches stays
 * whole. Null when the session has no such Terminal.
 */
export function asciicast(events: readonly RecordedEvent[], terminalId: string): string | null {
  const opened = events.find(
    (e): e is RecordedEvent & TerminalOpened =>
      e.type === 'TerminalOpened' && (e.data as { terminalId?: string }).terminalId === terminalId,
  );
  if (!opened) return null;
  const start = Date.parse(opened.data.at);
  const { command } = opened.data;
  const header = {
    version: 2,
    width: WIDTH,
    height: HEIGHT,
    timestamp: Math.floor(start / 1000),
    ...(command ? { command: command.join(' ') } : {}),
    title: command ? command.join(' ') : `Terminal ${terminalId}`,
    env: { TERM: 'xterm-256color', SHELL: '/bin/bash' },
  };
  const lines = [JSON.stringify(header)];
  const decoder = new TextDecoder('utf-8');
  for (const e of events) {
    if (e.type !== 'TerminalOutputRecorded') continue;
    const { data } = e as RecordedEvent & TerminalOutputRecorded;
    if (data.terminalId !== terminalId) continue;
    const text = decoder.decode(Buffer.from(data.data, 'base64'), { stream: true });
    const seconds = Math.max(0, (Date.parse(data.at) - start) / 1000);
    if (text) lines.push(JSON.stringify([Number(seconds.toFixed(6)), 'o', text]));
  }
  return `${lines.join('\n')}\n`;
}
