/**
 * Node's setTimeout fires at once for delays above 2^31 - 1 ms (about 24.8 days) with a
 * TimeoutOverflowWarning, and a yearly cron is further away than that. So a far deadline is
 * a chain of shorter timers, each re-reading the clock, which also absorbs clock drift.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface TimerHandle {
  cancel(): void;
}

/** Calls `fn` once, at or after `at` (never before), unless cancelled first. */
export function timerAt(at: Date, fn: () => void, now: () => number = Date.now): TimerHandle {
  let handle: NodeJS.Timeout | undefined;
  let cancelled = false;
  const arm = (): void => {
    if (cancelled) return;
    const left = at.getTime() - now();
    if (left <= 0) {
      handle = undefined;
      fn();
      return;
    }
    handle = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
  };
  // Even a due deadline goes through a timer, so `fn` never runs inside the caller's call.
  handle = setTimeout(arm, Math.max(0, Math.min(at.getTime() - now(), MAX_TIMER_MS)));
  return {
    cancel: () => {
      cancelled = true;
      if (handle) clearTimeout(handle);
    },
  };
}

/** A pause that close() can cut short: resolves true after `ms`, or false once cancelled. */
export function cancellableSleep(ms: number): { done: Promise<boolean>; cancel: () => void } {
  let finish: (completed: boolean) => void = () => undefined;
  const done = new Promise<boolean>((resolve) => (finish = resolve));
  const handle = setTimeout(() => finish(true), Math.min(ms, MAX_TIMER_MS));
  return {
    done,
    cancel: () => {
      clearTimeout(handle);
      finish(false);
    },
  };
}
