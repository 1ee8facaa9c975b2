import fc from 'fast-check';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { outputPage } from './output-page';

let position = 0;
const batch = (terminalId: string, offset: number, bytes: Buffer): RecordedEvent =>
  ({
    type: 'TerminalOutputRecorded',
    position: position++,
    data: {
      sessionId: 's1',
      terminalId,
      offset,
      length: bytes.length,
      data: bytes.toString('base64'),
      at: '2026-01-01T00:00:00.000Z',
    },
  }) as unknown as RecordedEvent;

/** A Terminal's output split into batches at the given cut points. */
function batches(whole: Buffer, cuts: number[], terminalId = 't1'): RecordedEvent[] {
  const points = [...new Set([0, ...cuts.map((c) => c % (whole.length + 1)), whole.length])].sort(
    (a, b) => a - b,
  );
  const events: RecordedEvent[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    events.push(batch(terminalId, points[i], whole.subarray(points[i], points[i + 1])));
  }
  return events;
}

const text = (page: { data: string }) => Buffer.from(page.data, 'base64').toString('utf8');

describe("a page of a Terminal's recorded output", () => {
  it('reads on from endOffset to the whole output, whatever the limit and the batches', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.integer({ min: 1, max: 64 }),
        (bytes, cuts, limit) => {
          const whole = Buffer.from(bytes);
          const events = [...batches(whole, cuts), ...batches(Buffer.from('other'), [], 't2')];
          const read: Buffer[] = [];
          let after = 0;
          for (let truncated = true; truncated;) {
            const page = outputPage(events, 't1', after, limit);
            expect(page.startOffset).toBe(after);
            expect(Buffer.from(page.data, 'base64').length).toBeLessThanOrEqual(limit);
            read.push(Buffer.from(page.data, 'base64'));
            expect(page.endOffset).toBe(after + read[read.length - 1].length);
            ({ truncated } = page);
            after = page.endOffset;
          }
          expect(Buffer.concat(read).equals(whole)).toBe(true);
        },
      ),
    );
  });

  it('starts inside a batch, and skips a batch sent again', () => {
    const events = [
      batch('t1', 0, Buffer.from('hello')),
      batch('t1', 0, Buffer.from('hello')),
      batch('t1', 5, Buffer.from(' world')),
    ];
    const page = outputPage(events, 't1', 3, 100);
    expect({ ...page, data: text(page) }).toEqual({
      data: 'lo world',
      startOffset: 3,
      endOffset: 11,
      truncated: false,
    });
  });

  it('stops at a gap in the offsets; the next page starts after it', () => {
    const events = [batch('t1', 0, Buffer.from('abc')), batch('t1', 10, Buffer.from('xyz'))];
    const first = outputPage(events, 't1', 0, 100);
    expect({ ...first, data: text(first) }).toEqual({
      data: 'abc',
      startOffset: 0,
      endOffset: 3,
      truncated: true,
    });
    const next = outputPage(events, 't1', 3, 100);
    expect({ ...next, data: text(next) }).toEqual({
      data: 'xyz',
      startOffset: 10,
      endOffset: 13,
      truncated: false,
    });
  });

  it('is empty where nothing is recorded yet', () => {
    expect(outputPage([], 't1', 0, 10)).toEqual({
      data: '',
      startOffset: 0,
      endOffset: 0,
      truncated: false,
    });
  });
});
