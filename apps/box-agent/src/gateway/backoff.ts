import { randomInt } from 'node:crypto';

export const BACKOFF_BASE_MS = 50;
export const BACKOFF_CAP_MS = 2_000;

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential from 50 ms, capped at 2 s,
 * with "equal jitter" (half fixed, half random) so that boxes restarted together by a
 * control-plane restart do not all knock at the same instant, yet never retry in a tight loop.
 */
export function backoffDelay(
  attempt: number,
  random: (min: number, max: number) => number = randomInt,
): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 16));
  const fixed = Math.floor(ceiling / 2);
  return fixed + random(0, ceiling - fixed + 1);
}
