import fc from 'fast-check';
import { OutputBuffer } from './output-buffer';

function pageAll(buffer: OutputBuffer, limit: number, from = 0): { text: string; pages: number } {
  let text = '';
  let pages = 0;
  for (let at = from; ;) {
    const page = buffer.read(at, limit);
    expect(page.startOffset).toBe(at);
    expect(page.data).not.toContain('\uFFFD');
    text += page.data;
    pages += 1;
    if (!page.truncated) return { text, pages };
    expect(page.endOffset).toBeGreaterThan(at);
    at = page.endOffset;
  }
}

// Text without U+FFFD of its own, so one in a page can only be a character the page broke.
const text = fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replace(/\uFFFD/g, '?'));

describe('OutputBuffer', () => {
  it('answers bytes after an offset, with where the page lies', () => {
    const b = new OutputBuffer();
    b.append(Buffer.from('hello '));
    b.append(Buffer.from('world'));
    expect(b.read(0)).toEqual({
      data: 'hello world',
      startOffset: 0,
      endOffset: 11,
      truncated: false,
    });
    expect(b.read(6, 3)).toEqual({ data: 'wor', startOffset: 6, endOffset: 9, truncated: true });
    expect(b.read(11)).toEqual({ data: '', startOffset: 11, endOffset: 11, truncated: false });
    expect(b.read(99)).toEqual({ data: '', startOffset: 11, endOffset: 11, truncated: false });
  });

  it('never cuts a UTF-8 character: a page ends before it, a start inside one moves on', () => {
    const b = new OutputBuffer();
    b.append(Buffer.from('aé🙂'));
    expect(b.read(0, 2)).toEqual({ data: 'a', startOffset: 0, endOffset: 1, truncated: true });
    expect(b.read(1, 2)).toEqual({ data: 'é', startOffset: 1, endOffset: 3, truncated: true });
    expect(b.read(2, 4)).toEqual({ data: '🙂', startOffset: 3, endOffset: 7, truncated: false });
    // A limit smaller than one character still gives that character whole.
    expect(b.read(3, 1)).toEqual({ data: '🙂', startOffset: 3, endOffset: 7, truncated: false });
  });

  it('leaves a character whose bytes have not all arrived for the next read', () => {
    const b = new OutputBuffer();
    const smile = Buffer.from('🙂');
    b.append(Buffer.concat([Buffer.from('a'), smile.subarray(0, 2)]));
    expect(b.read(0)).toEqual({ data: 'a', startOffset: 0, endOffset: 1, truncated: true });
    expect(b.read(1, 1)).toEqual({ data: '', startOffset: 1, endOffset: 1, truncated: true });
    b.append(smile.subarray(2));
    expect(b.read(1)).toEqual({ data: '🙂', startOffset: 1, endOffset: 5, truncated: false });
  });

  it('pages of any limit over chunks split anywhere join to the whole text', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.integer({ min: 1, max: 64 }),
        (parts, cuts, limit) => {
          const whole = Buffer.from(parts.join(''));
          const b = new OutputBuffer();
          const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort(
            (x, y) => x - y,
          );
          let at = 0;
          let read = 0;
          let text = '';
          for (const p of [...points, whole.length]) {
            b.append(whole.subarray(at, p));
            at = p;
            // Reading while it arrives loses and breaks nothing either.
            const page = b.read(read, 1 << 20);
            expect(page.data).not.toContain('\uFFFD');
            text += page.data;
            read = page.endOffset;
          }
          expect(text).toBe(whole.toString('utf8'));
          expect(b.length).toBe(whole.length);
          expect(pageAll(b, limit).text).toBe(whole.toString('utf8'));
        },
      ),
    );
  });
});
