import type { Point } from '@sessionboxer/mcp-adapters/desktop';

/**
 * The pointer's glide to a target (the spec: "an eased motion of 100–300 ms, about 120
 * positions a second"), so hover effects and drop targets see a pointer travel as a hand
 * moves it rather than appear. Pure: the engine turns the steps into xdotool commands.
 */

export const GLIDE_HZ = 120;
export const GLIDE_MIN_MS = 100;
export const GLIDE_MAX_MS = 300;
/** Each pixel of distance adds this much on top of the minimum: 1,000 px take the maximum. */
const MS_PER_PIXEL = (GLIDE_MAX_MS - GLIDE_MIN_MS) / 1000;
/** Closer than this, a glide would be a pause with no visible motion: jump instead. */
export const JUMP_BELOW_PX = 2;

/** One position of a glide, reached `delayMs` after the previous one. */
export interface GlideStep extends Point {
  delayMs: number;
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

/** 0 for a jump, else 100–300 ms growing with the distance. */
export function glideDurationMs(px: number): number {
  if (px < JUMP_BELOW_PX) return 0;
  return Math.min(GLIDE_MAX_MS, GLIDE_MIN_MS + px * MS_PER_PIXEL);
}

/** Cubic ease-in-out: starts and ends at rest, fastest halfway, as a hand moves. */
export function easeInOut(t: number): number {
  const u = Math.min(Math.max(t, 0), 1);
  return u < 0.5 ? 4 * u * u * u : 1 - (-2 * u + 2) ** 3 / 2;
}

/**
 * The positions from `from` (excluded) to `to` (always the last, exactly). A position that
 * rounds to the pixel before it is dropped and its wait added to the next one (the eased end
 * rounds onto the target early: that wait goes to the last step), so the glide keeps its
 * length without sending moves that go nowhere.
 */
export function glidePath(from: Point, to: Point): GlideStep[] {
  const durationMs = glideDurationMs(distance(from, to));
  if (durationMs === 0) return from.x === to.x && from.y === to.y ? [] : [{ ...to, delayMs: 0 }];
  const steps = Math.max(1, Math.round((durationMs / 1000) * GLIDE_HZ));
  const stepMs = durationMs / steps;
  const path: GlideStep[] = [];
  let last = from;
  let waited = 0;
  for (let i = 1; i <= steps; i++) {
    const k = easeInOut(i / steps);
    const point = {
      x: Math.round(from.x + (to.x - from.x) * k),
      y: Math.round(from.y + (to.y - from.y) * k),
    };
    waited += stepMs;
    if (point.x === last.x && point.y === last.y) continue;
    path.push({ ...point, delayMs: waited });
    last = point;
    waited = 0;
  }
  path[path.length - 1].delayMs += waited;
  return path;
}

/** How long a path takes, for the bound on the command that plays it. */
export function pathMs(path: readonly GlideStep[]): number {
  return path.reduce((sum, step) => sum + step.delayMs, 0);
}
