import type { Redis } from 'ioredis';
import { errorText } from './fire-handlers';
import type { JobsLogger } from './jobs.port';

/**
 * Notices that Redis lost the jobs data: FLUSHALL, or a Redis without persistence that
 * restarted. An empty schedule list cannot say it (there may be no schedules), so the adapter
 * keeps a marker key next to BullMQ's; when the marker is gone, everything else is too.
 * The check runs every `intervalMs` and whenever the connection comes back.
 */
export class DataLossWatch {
  private readonly listeners = new Set<() => void | Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private readonly onReady = (): void => void this.check();

  constructor(
    private readonly redis: Redis,
    private readonly markerKey: string,
    private readonly intervalMs: number,
    private readonly logger: JobsLogger,
  ) {}

  add(listener: () => void | Promise<void>): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Sets the marker (the data is whole now) and begins checking for it. */
  async start(): Promise<void> {
    await this.mark();
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.redis.on('ready', this.onReady);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.redis.off('ready', this.onReady);
  }

  /** True (and listeners told) when the marker was gone. */
  async check(): Promise<boolean> {
    if (this.checking || !this.timer) return false;
    this.checking = true;
    try {
      if ((await this.redis.exists(this.markerKey)) === 1) return false;
      await this.mark();
      this.logger.warn(
        'Redis lost the jobs data (its marker key is gone): schedules and pending one-shots ' +
          'must be rebuilt from the event history',
      );
      for (const listener of this.listeners) this.tell(listener);
      return true;
    } catch (e) {
      this.logger.warn(`could not check Redis for lost jobs data: ${errorText(e)}`);
      return false;
    } finally {
      this.checking = false;
    }
  }

  private async mark(): Promise<void> {
    await this.redis.set(this.markerKey, new Date().toISOString());
  }

  private tell(listener: () => void | Promise<void>): void {
    try {
      const result = listener();
      if (result instanceof Promise) {
        result.catch((e) => this.logger.error(`a data-loss listener failed: ${errorText(e)}`));
      }
    } catch (e) {
      this.logger.error(`a data-loss listener failed: ${errorText(e)}`);
    }
  }
}
