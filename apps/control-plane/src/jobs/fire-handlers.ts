import type { JobFire, JobHandler, JobsLogger } from './jobs.port';

/**
 * The handlers one adapter hands its fires to. One delivery runs every handler; if any fails
 * the delivery fails and is retried as a whole (at least once: the others see it again).
 */
export class FireHandlers {
  private readonly handlers = new Set<JobHandler>();

  constructor(private readonly logger: JobsLogger) {}

  add(handler: JobHandler): () => void {
    // A wrapper, so registering the same function twice gives two independent registrations.
    const registered: JobHandler = (fire) => handler(fire);
    this.handlers.add(registered);
    return () => {
      this.handlers.delete(registered);
    };
  }

  /** Runs every handler on `fire`; rejects with the first failure once all have settled. */
  async deliver(fire: JobFire): Promise<void> {
    if (this.handlers.size === 0) {
      this.logger.warn(`${describeFire(fire)} fired with no handler registered; it is dropped`);
      return;
    }
    const results = await Promise.allSettled([...this.handlers].map((h) => h(fire)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** `cron job nightly-report (for 2026-01-01T09:00:00.000Z)`, for log lines. */
export function describeFire(fire: Pick<JobFire, 'kind' | 'id' | 'scheduledFor'>): string {
  return `${fire.kind} job ${fire.id} (for ${fire.scheduledFor.toISOString()})`;
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
