import type { SharedState } from '../infrastructure/shared-state';

/** Failed sign-ins allowed from one address before it has to wait. */
export const FREE_FAILURES = 5;
const WINDOW_MS = 15 * 60_000;
const LOCK_MS = 60_000;

/**
 * Slows password guessing: after five failures from one address within 15 minutes, that
 * address waits a minute; then it has five tries again (a lock never renews itself, so nobody
 * can keep the operator out for longer than a minute at a time). A success clears the count.
 * Counts and locks are in the shared state, so every instance sees them and a restart does
 * not reset them.
 */
export class SignInThrottle {
  constructor(
    private readonly state: SharedState,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds this address must still wait, or 0. */
  async waitSeconds(address: string): Promise<number> {
    const until = Number((await this.state.get(lockKey(address))) ?? 0);
    return Math.max(0, Math.ceil((until - this.now()) / 1000));
  }

  async failed(address: string): Promise<void> {
    const count = await this.state.increment(failuresKey(address), WINDOW_MS);
    if (count < FREE_FAILURES) return;
    await this.state.delete(failuresKey(address));
    await this.state.set(lockKey(address), String(this.now() + LOCK_MS), LOCK_MS);
  }

  async succeeded(address: string): Promise<void> {
    await this.state.delete(failuresKey(address));
  }
}

const failuresKey = (address: string): string => `sign-in-failures:${address}`;
const lockKey = (address: string): string => `sign-in-lock:${address}`;
