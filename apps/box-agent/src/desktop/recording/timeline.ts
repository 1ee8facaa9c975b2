/**
 * Time edits of a recording, as pure arithmetic: cuts that condense static stretches and holds
 * that freeze a frame until a sentence ends. One `Timeline` maps any time of the source video to
 * the finished one, and writes the same edit as ffmpeg expressions, so the captions, the .vtt
 * and the frames can never disagree.
 */

/** Frames with start <= t < end are dropped. */
export interface Cut {
  start: number;
  end: number;
}

/** Frames at t >= at come `seconds` later; the frame shown at `at` is held meanwhile. */
export interface Hold {
  at: number;
  seconds: number;
}

/** A moment something new appears: a changed frame, or a caption that must stay readable. */
export interface Change {
  at: number;
  /** How long a caption needs on screen (0 for a frame). */
  readSeconds: number;
}

export interface CondenseOptions {
  fps: number;
  /** How much of a static stretch is kept. */
  holdSeconds: number;
  /** Shorter stillness is left alone. */
  minCutSeconds: number;
}

export const CONDENSE: CondenseOptions = { fps: 15, holdSeconds: 1, minCutSeconds: 0.5 };

/**
 * The cuts that shorten every stillness between two changes to `holdSeconds` (longer while a
 * caption is still being read). Cut edges sit half a frame before a frame, so rounding in the
 * frame times can never drop the frame that brings the change.
 */
export function staticCuts(changes: Change[], duration: number, o = CONDENSE): Cut[] {
  const half = 0.5 / o.fps;
  const sorted = [...changes].sort((a, b) => a.at - b.at);
  const cuts: Cut[] = [];
  let readUntil = 0;
  sorted.forEach((change, i) => {
    if (change.readSeconds > 0) readUntil = Math.max(readUntil, change.at + change.readSeconds);
    const next = sorted[i + 1];
    const start = Math.max(change.at + o.holdSeconds, readUntil) - half;
    const end = next === undefined ? duration + 1 : next.at - half;
    const until = Math.min(end, duration);
    if (until - start >= o.minCutSeconds) cuts.push({ start: round(start), end: round(end) });
  });
  return cuts;
}

function round(n: number): number {
  return Math.round(n * 1e4) / 1e4;
}

const num = (n: number) => String(round(n));

/** Cuts and holds over a source video, applied in one ffmpeg pass. */
export class Timeline {
  constructor(
    readonly cuts: Cut[] = [],
    readonly holds: Hold[] = [],
    /** Seconds the last frame is held at the end (a last sentence longer than its step). */
    readonly tail = 0,
  ) {}

  get edited(): boolean {
    return this.cuts.length > 0 || this.holds.some((h) => h.seconds > 0) || this.tail > 0;
  }

  /** Where source time `t` lands in the finished video (a time inside a cut: where it was). */
  map(t: number): number {
    let out = t;
    for (const cut of this.cuts) if (t > cut.start) out -= Math.min(t, cut.end) - cut.start;
    for (const hold of this.holds) if (t >= hold.at) out += hold.seconds;
    return round(out);
  }

  /** The finished length of a source of `duration` seconds. */
  length(duration: number): number {
    return round(this.map(duration) + this.tail);
  }

  /** A timeline with these holds added, for times given in this timeline's source. */
  withHolds(holds: Hold[], tail: number): Timeline {
    return new Timeline(this.cuts, [...this.holds, ...holds], this.tail + tail);
  }

  /** ffmpeg `select` expression keeping the frames outside every cut, or null without cuts. */
  selectExpr(): string | null {
    if (!this.cuts.length) return null;
    const inside = this.cuts.map((c) => `gte(t,${num(c.start)})*lt(t,${num(c.end)})`);
    return `not(${inside.join('+')})`;
  }

  /** ffmpeg `setpts` expression moving each kept frame to its finished time. */
  setptsExpr(): string {
    const terms = [
      ...this.cuts.map((c) => `-gte(T,${num(c.end)})*${num(c.end - c.start)}`),
      ...this.holds
        .filter((h) => h.seconds > 0)
        .map((h) => `+gte(T,${num(h.at)})*${num(h.seconds)}`),
    ];
    return `(T${terms.join('')})/TB`;
  }
}

/**
 * Holds so that each caption's step lasts at least its sentence plus `gap`: step i runs from
 * caption i to caption i+1 (the last one to the end). Times are in `timeline`'s source.
 */
export function narrationHolds(
  timeline: Timeline,
  captionTimes: number[],
  speechSeconds: number[],
  duration: number,
  gap: number,
): { holds: Hold[]; tail: number } {
  const holds: Hold[] = [];
  let tail = 0;
  captionTimes.forEach((at, i) => {
    const next = captionTimes[i + 1];
    const stepEnd = next ?? duration;
    const step =
      timeline.map(stepEnd) - timeline.map(at) + (next === undefined ? timeline.tail : 0);
    const missing = round(Math.max(0, speechSeconds[i] + gap - step));
    if (missing <= 0) return;
    if (next === undefined) tail = missing;
    else holds.push({ at: next, seconds: missing });
  });
  return { holds, tail };
}
