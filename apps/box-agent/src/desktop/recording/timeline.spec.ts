import { narrationHolds, staticCuts, Timeline } from './timeline';

const frame = (at: number) => ({ at, readSeconds: 0 });
const options = { fps: 10, holdSeconds: 1, minCutSeconds: 0.5 };

describe('staticCuts', () => {
  it('keeps one second of each stillness, cutting half a frame before the next change', () => {
    const cuts = staticCuts([frame(0), frame(0.5), frame(4)], 6, options);
    expect(cuts).toEqual([
      { start: 1.45, end: 3.95 },
      { start: 4.95, end: 7 },
    ]);
  });

  it('leaves stillness shorter than the minimum alone', () => {
    expect(staticCuts([frame(0), frame(1.3)], 1.5, options)).toEqual([]);
  });

  it('keeps a caption on screen long enough to read, even when frames change right after it', () => {
    const cuts = staticCuts(
      [frame(0), { at: 1, readSeconds: 3 }, frame(1.2), frame(10)],
      10,
      options,
    );
    expect(cuts).toEqual([{ start: 3.95, end: 9.95 }]);
  });
});

describe('Timeline', () => {
  const timeline = new Timeline([{ start: 2, end: 5 }], [{ at: 6, seconds: 1.5 }], 2);

  it('maps source times through cuts and holds', () => {
    expect([0, 2, 3.5, 5, 5.9, 6, 8].map((t) => timeline.map(t))).toEqual([
      0, 2, 2, 2, 2.9, 4.5, 6.5,
    ]);
    expect(timeline.length(8)).toBe(8.5);
  });

  it('writes the same edit as ffmpeg expressions', () => {
    expect(timeline.selectExpr()).toBe('not(gte(t,2)*lt(t,5))');
    expect(timeline.setptsExpr()).toBe('(T-gte(T,5)*3+gte(T,6)*1.5)/TB');
    expect(new Timeline().selectExpr()).toBeNull();
    expect(new Timeline().edited).toBe(false);
  });
});

describe('narrationHolds', () => {
  it('extends each step shorter than its sentence plus the gap, the last one at the end', () => {
    const condensed = new Timeline([{ start: 3, end: 6 }]);
    // Steps: 0–2 (2 s), 2–7 (2 s once condensed), 7–9 (2 s).
    const { holds, tail } = narrationHolds(condensed, [0, 2, 7], [1, 2.5, 3], 9, 0.5);
    expect(holds).toEqual([{ at: 7, seconds: 1 }]);
    expect(tail).toBe(1.5);
    const narrated = condensed.withHolds(holds, tail);
    expect([0, 2, 7].map((t) => narrated.map(t))).toEqual([0, 2, 5]);
    expect(narrated.length(9)).toBe(8.5);
  });
});
