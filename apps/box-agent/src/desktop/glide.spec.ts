import { chunks } from './engine';
import {
  easeInOut,
  GLIDE_HZ,
  GLIDE_MAX_MS,
  GLIDE_MIN_MS,
  glideDurationMs,
  glidePath,
  pathMs,
} from './glide';
import * as s from './script';

describe('the glide', () => {
  it('eases in and out: at rest at both ends, symmetric, monotonic, half way at half time', () => {
    expect(easeInOut(0)).toBe(0);
    expect(easeInOut(1)).toBe(1);
    expect(easeInOut(0.5)).toBe(0.5);
    expect(easeInOut(-1)).toBe(0);
    expect(easeInOut(2)).toBe(1);
    const ts = Array.from({ length: 101 }, (_, i) => i / 100);
    for (const t of ts) expect(easeInOut(t) + easeInOut(1 - t)).toBeCloseTo(1, 10);
    const values = ts.map(easeInOut);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThanOrEqual(values[i - 1]);
    // Slow at the ends, fast in the middle.
    expect(values[5] - values[0]).toBeLessThan(0.01);
    expect(values[52] - values[48]).toBeGreaterThan(0.1);
  });

  it('lasts 100–300 ms growing with distance, and jumps when already (nearly) there', () => {
    expect(glideDurationMs(0)).toBe(0);
    expect(glideDurationMs(1.5)).toBe(0);
    expect(glideDurationMs(2)).toBeCloseTo(GLIDE_MIN_MS, 0);
    expect(glideDurationMs(500)).toBe(200);
    expect(glideDurationMs(1000)).toBe(GLIDE_MAX_MS);
    expect(glideDurationMs(5000)).toBe(GLIDE_MAX_MS);
  });

  it('steps at about 120 positions a second and ends exactly on the target', () => {
    const path = glidePath({ x: 0, y: 0 }, { x: 1000, y: 0 });
    expect(pathMs(path)).toBeCloseTo(GLIDE_MAX_MS, 6);
    // 36 ticks of 1/120 s; the ticks whose eased position rounds onto the previous pixel
    // (at the very start and end) are merged into their neighbours.
    expect(path.length).toBeGreaterThanOrEqual(33);
    expect(path.length).toBeLessThanOrEqual((GLIDE_MAX_MS / 1000) * GLIDE_HZ);
    for (const step of path) {
      const ticks = step.delayMs / (1000 / GLIDE_HZ);
      expect(ticks).toBeCloseTo(Math.round(ticks), 6);
    }
    expect(path[path.length - 1]).toMatchObject({ x: 1000, y: 0 });
    const xs = path.map((p) => p.x);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    const first = xs[0];
    const middle = xs[18] - xs[17];
    expect(first).toBeLessThan(middle / 10); // eased: the first step is a small one
  });

  it('drops steps that round to the same pixel, keeping the total time', () => {
    const path = glidePath({ x: 10, y: 10 }, { x: 14, y: 10 });
    expect(path.map((p) => p.x)).toEqual([11, 12, 13, 14]);
    expect(pathMs(path)).toBeCloseTo(glideDurationMs(4), 6);
    expect(glidePath({ x: 5, y: 5 }, { x: 5, y: 5 })).toEqual([]);
    expect(glidePath({ x: 5, y: 5 }, { x: 6, y: 5 })).toEqual([{ x: 6, y: 5, delayMs: 0 }]);
  });
});

describe('xdotool script lines', () => {
  it('plays a path as moves with sleeps between them', () => {
    expect(
      s.glideLines([
        { x: 1, y: 2, delayMs: 0 },
        { x: 3, y: 4, delayMs: 8.3333 },
      ]),
    ).toEqual(['mousemove 1 2', 'sleep 0.0083', 'mousemove 3 4']);
  });

  it('clicks, scrolls and holds modifiers around them', () => {
    expect(s.withModifiers(['ctrl', 'shift'], s.clickLines('left', 2))).toEqual([
      'keydown ctrl+shift',
      'mousedown 1',
      'mouseup 1',
      'sleep 0.0400',
      'mousedown 1',
      'mouseup 1',
      'keyup shift+ctrl',
    ]);
    expect(s.wheelLines('right', 2)).toEqual([
      'mousedown 7',
      'mouseup 7',
      'sleep 0.0200',
      'mousedown 7',
      'mouseup 7',
    ]);
    expect(s.withModifiers(undefined, ['x'])).toEqual(['x']);
  });

  it('presses keys in one command and releases held ones in reverse', () => {
    expect(s.keyLines([['ctrl', 'a'], ['Delete']])).toEqual(['key --delay 12 ctrl+a Delete']);
    expect(s.keyDownLines([['ctrl', 'a'], ['b']])).toEqual(['keydown ctrl+a', 'keydown b']);
    expect(s.keyUpLines([['ctrl', 'a'], ['b']])).toEqual(['keyup b', 'keyup a+ctrl']);
  });

  it('refuses anything but numbers and key names, whatever the caller checked', () => {
    expect(() => s.moveLine({ x: 1.5, y: 2 })).toThrow(s.ScriptValueError);
    expect(() => s.keyLines([['a\nexec touch /tmp/x']])).toThrow(s.ScriptValueError);
    expect(() => s.keyLines([['a b']])).toThrow(s.ScriptValueError);
    expect(() => s.keyLines([[]])).toThrow(s.ScriptValueError);
  });

  it('sums the sleeps of a batch for its time bound', () => {
    expect(s.linesMs(['sleep 0.0500', 'mousemove 1 1', 'sleep 0.2500'])).toBeCloseTo(300, 6);
  });
});

describe('typing chunks', () => {
  it('cuts text in chunks of 50 characters without splitting a character', () => {
    expect(chunks('a'.repeat(120)).map((c) => c.length)).toEqual([50, 50, 20]);
    const emoji = '😀'.repeat(51);
    expect(chunks(emoji).map((c) => Array.from(c).length)).toEqual([50, 1]);
    expect(chunks('')).toEqual([]);
  });
});
