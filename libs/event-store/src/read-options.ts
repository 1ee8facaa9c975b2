/** Turns the port's read options into plain numbers, the same way for every adapter. */
import type { Direction } from './event-store.port';

/** A read as a store runs it: where to start (inclusive), which way, how many (or all). */
export interface ResolvedRead {
  forwards: boolean;
  from: number;
  /** Undefined: no limit. */
  maxCount: number | undefined;
}

/**
 * Resolves `from` ('start' | 'end' | a number, default by direction) and `maxCount`.
 * 'end' read forwards starts past the last event, so it yields nothing; read backwards it
 * starts at the last event.
 */
export function resolveRead(
  direction: Direction | undefined,
  from: number | 'start' | 'end' | undefined,
  maxCount: number | undefined,
): ResolvedRead {
  const forwards = (direction ?? 'forwards') === 'forwards';
  if (maxCount !== undefined && (!Number.isSafeInteger(maxCount) || maxCount < 0)) {
    throw new RangeError(`maxCount must be a non-negative integer, got ${String(maxCount)}`);
  }
  const start = from ?? (forwards ? 'start' : 'end');
  if (typeof start === 'number' && (!Number.isSafeInteger(start) || start < 0)) {
    throw new RangeError(`read start must be a non-negative integer, got ${String(start)}`);
  }
  let resolved: number;
  if (start === 'start') resolved = 0;
  else if (start === 'end') resolved = Number.MAX_SAFE_INTEGER;
  else resolved = start;
  return { forwards, from: resolved, maxCount };
}

/** Checks a subscription's exclusive start; returns it unchanged. */
export function checkSubscriptionStart<T extends number | 'start' | 'end'>(from: T): T {
  if (typeof from === 'number' && (!Number.isSafeInteger(from) || from < -1)) {
    throw new RangeError(`subscription start must be an integer >= -1, got ${String(from)}`);
  }
  return from;
}
