import type { TerminalOutputPage } from '@sessionboxer/contracts';
import type { TerminalOutputRecorded } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';

/** What one page of a Terminal's recorded output holds at most, and by default. */
export const OUTPUT_PAGE_MAX = 4 * 1024 * 1024;
export const OUTPUT_PAGE_DEFAULT = 1024 * 1024;

/**
 * The recorded bytes of a Terminal's output after `afterOffset`, at most `limit`, from the
 * session's history (the live pane's catch-up). A page stops at a gap in the offsets (bytes
 * the box never sent): the next page starts after it, `startOffset` says where.
 */
export function outputPage(
  events: readonly RecordedEvent[],
  terminalId: string,
  afterOffset: number,
  limit: number,
): TerminalOutputPage {
  const chunks: Buffer[] = [];
  let start: number | null = null;
  let end = afterOffset;
  let used = 0;
  let truncated = false;
  for (const e of events) {
    if (e.type !== 'TerminalOutputRecorded') continue;
    const { data } = e as RecordedEvent & TerminalOutputRecorded;
    const batchEnd = data.offset + data.length;
    if (data.terminalId !== terminalId || batchEnd <= end) continue;
    if ((start !== null && data.offset > end) || used >= limit) {
      truncated = true;
      break;
    }
    const from = Math.max(end, data.offset);
    const take = Math.min(batchEnd - from, limit - used);
    chunks.push(
      Buffer.from(data.data, 'base64').subarray(from - data.offset, from - data.offset + take),
    );
    start ??= from;
    used += take;
    end = from + take;
    if (end < batchEnd) {
      truncated = true;
      break;
    }
  }
  const data = Buffer.concat(chunks).toString('base64');
  return { data, startOffset: start ?? afterOffset, endOffset: end, truncated };
}
