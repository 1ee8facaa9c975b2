import { byteRange } from './file-answer';

describe('byte ranges of a workspace file', () => {
  it('reads a-b, a- and -n, clamped to the file', () => {
    expect(byteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(byteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  });

  it('answers the whole file without a range, or for several or malformed ones', () => {
    expect(byteRange(undefined, 100)).toBe('whole');
    expect(byteRange('bytes=0-1,5-6', 100)).toBe('whole');
    expect(byteRange('items=0-1', 100)).toBe('whole');
    expect(byteRange('bytes=-', 100)).toBe('whole');
  });

  it('refuses a range that starts past the end or runs backwards', () => {
    expect(byteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=50-10', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});
