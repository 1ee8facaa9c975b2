/**
 * State that must be the same for every control-plane instance and survive a restart, but is
 * not history: sign-ins, the sign-in throttle, which instance owns which box (leases), which
 * instances are alive. Values are strings; every key may expire.
 *
 * Two adapters: a SQLite file beside the event store (the embedded default, shared by the
 * processes of one host) and Redis (REDIS_URL: several hosts). The same contract test runs
 * against both (shared-state.int.ts).
 */
export interface SharedState {
  /** The value, or null when absent or expired. */
  get(key: string): Promise<string | null>;
  /** Sets the value, expiring after `ttlMs` (none: kept until deleted). */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Sets it only when absent (or expired): a lease taken. True when this call set it. */
  claim(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Extends the expiry while the key still holds `value`; false when it holds another or none. */
  renew(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Deletes the key only while it holds `value` (a lease given back); true when deleted. */
  release(key: string, value: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Adds 1 (from 0 when absent or expired; the expiry is set then and only then). */
  increment(key: string, ttlMs: number): Promise<number>;
  /** Every live key under `prefix` with its value. */
  scan(prefix: string): Promise<Map<string, string>>;
  close(): Promise<void>;
}

/** Injection token of the SharedState port. */
export const SHARED_STATE = Symbol('SharedState');
