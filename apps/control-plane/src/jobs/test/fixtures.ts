/** Helpers shared by the jobs contract sections: adapters per test, fire recorders, waits. */
import { randomUUID } from 'node:crypto';
import type { JobFire, JobsLogger, JobsPort, RetryPolicy } from '../jobs.port';

/** What an adapter's test file hands the contract, once per test. */
export interface JobsBackend {
  /**
   * A new adapter instance over the same backing store as this test's earlier ones: opening
   * a second one after closing the first is a restart of the scheduler.
   */
  open(logger: JobsLogger): JobsPort;
  /** Disposes of the backing store (after the contract closed every adapter it opened). */
  cleanup(): Promise<void>;
}

export type JobsFactory = () => Promise<JobsBackend>;

/** Fast retries, so a test sees every attempt in about a second. */
export const CONTRACT_RETRY: RetryPolicy = { attempts: 3, backoffMs: 100 };

/** Keeps every log line, so tests can check what was logged and failures can show it. */
export class CapturingLogger implements JobsLogger {
  readonly lines: string[] = [];
  log(message: string): void {
    this.lines.push(`log: ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn: ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error: ${message}`);
  }
}

/** One adapter with its log and a recorder of every fire it delivered. */
export interface Opened {
  jobs: JobsPort;
  logger: CapturingLogger;
  fires: FireRecorder;
  close(): Promise<void>;
}

export interface JobsHarness {
  /** Opens an adapter with a recorder already registered (handlers go in before start). */
  open(): Opened;
}

/** A fresh backend per test; every adapter a test opened is closed after it. */
export function useJobs(factory: JobsFactory): JobsHarness {
  let backend: JobsBackend | undefined;
  let opened: Opened[] = [];
  beforeEach(async () => {
    backend = await factory();
  });
  afterEach(async () => {
    await Promise.all(opened.map((o) => o.close()));
    opened = [];
    await backend?.cleanup();
    backend = undefined;
  });
  return {
    open: () => {
      if (!backend) throw new Error('no backend: open() only works inside a test');
      const logger = new CapturingLogger();
      const jobs = backend.open(logger);
      const fires = new FireRecorder();
      jobs.onFire(fires.handler);
      let closing: Promise<void> | undefined;
      const entry: Opened = { jobs, logger, fires, close: () => (closing ??= jobs.close()) };
      opened.push(entry);
      return entry;
    },
  };
}

export class FireRecorder {
  readonly fires: JobFire[] = [];
  readonly handler = (fire: JobFire): Promise<void> => {
    this.fires.push(fire);
    return Promise.resolve();
  };

  of(id: string): JobFire[] {
    return this.fires.filter((f) => f.id === id);
  }

  /** Resolves with the first `count` fires of `id`, or fails after `timeoutMs`. */
  async waitFor(id: string, count: number, timeoutMs = 5000): Promise<JobFire[]> {
    await until(
      () => this.of(id).length >= count,
      timeoutMs,
      () => {
        return `${count} fire(s) of ${id}, got ${this.of(id).length}: ${JSON.stringify(this.fires)}`;
      },
    );
    return this.of(id).slice(0, count);
  }
}

/** Polls `check` every 20 ms; fails with `what()` once `timeoutMs` has passed. */
export async function until(
  check: () => boolean,
  timeoutMs: number,
  what: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await sleep(20);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An id no other test uses (adapters may share one Redis). */
export function uniqueId(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}`;
}

/** Every second, on the second: the fastest pattern, for tests that watch fires happen. */
export const EVERY_SECOND = '*/1 * * * * *';
