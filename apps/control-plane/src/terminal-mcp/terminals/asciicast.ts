import { StringDecoder } from 'node:string_decoder';
import type { SshTerminalEvent } from '@sessionboxer/domain';

/**
 * A terminal's recorded output as asciicast v2 (asciinema's format): a header line, then one
 * `[seconds, "o", text]` line per output batch, timed by the batch's record time from the
 * first event. The batches' bytes are decoded as one stream, so a character split between two
 * batches is whole in the export.
 */
export function asciicast(
  events: readonly SshTerminalEvent[],
  size = { width: 120, height: 40 },
): string {
  const start = events.find((e) => e.type === 'SshTerminalRequested');
  if (!start) return '';
  const t0 = Date.parse(start.data.at);
  const title = `${start.data.target.user}@${start.data.target.host}:${start.data.target.port}`;
  const header = { version: 2, ...size, timestamp: Math.floor(t0 / 1000), title };
  const lines = [JSON.stringify(header)];
  const decoder = new StringDecoder('utf8');
  for (const e of events) {
    if (e.type !== 'SshTerminalOutputRecorded') continue;
    const text = decoder.write(Buffer.from(e.data.data, 'base64'));
    const seconds = Math.max(0, (Date.parse(e.data.at) - t0) / 1000);
    if (text) lines.push(JSON.stringify([Number(seconds.toFixed(6)), 'o', text]));
  }
  return `${lines.join('\n')}\n`;
}
