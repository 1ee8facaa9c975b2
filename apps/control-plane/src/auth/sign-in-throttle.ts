/** Failed sign-ins allowed from one address before it has to wait. */
export const FREE_FAILURES = 5;
const WINDOW_MS = 15 * 60_000;
const LOCK_MS = 60_000;

interface Failures {
  count: number;
  first: number;
  lockedUntil: number;
}

/**
 * Slows password guessing: after five failures from one address within 15 minutes, that
 * address waits a minute; then it has five tries again (a lock never renews itself, so nobody
 * can keep the operator out for longer than a minute at a time). A success clears the count;
 * so does a restart.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds this address must still wait, or 0. */
  waitSeconds(address: string): number {
    const f = this.failures.get(address);
    if (!f) return 0;
    return Math.max(0, Math.ceil((f.lockedUntil - this.now()) / 1000));
  }

  failed(address: string): void {
    const at = this.now();
    let f = this.failures.get(address);
    const lockOver = f !== undefined && f.lockedUntil > 0 && at >= f.lockedUntil;
    if (!f || lockOver || at - f.first > WINDOW_MS) {
      f = { count: 0, first: at, lockedUntil: 0 };
      this.failures.set(address, f);
    }
    f.count += 1;
    if (f.count >= FREE_FAILURES) f.lockedUntil = at + LOCK_MS;
    if (this.failures.size > 10_000)
      this.failures.delete(this.failures.keys().next().value as string);
  }

  succeeded(address: string): void {
    this.failures.delete(address);
  }
}
