import { Logger } from '@nestjs/common';
import { Queue, Worker, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import {
  CATCH_UP_JOB,
  catchUpJobId,
  CRON_JOB,
  DELAYED_JOB,
  decide,
  delayedJobId,
  sameSchedule,
  toInfo,
  PENDING,
  type AnyJobData,
  type CatchUpJobData,
  type CronJobData,
  type DelayedJobData,
} from './bullmq-fires';
import {
  checkDelayed,
  checkId,
  checkSchedule,
  lastMissedOccurrence,
  type CheckedSchedule,
} from './cron';
import { DataLossWatch } from './data-loss-watch';
import { describeFire, errorText, FireHandlers } from './fire-handlers';
import {
  DEFAULT_RETRY,
  type CronSchedule,
  type DelayedJob,
  type JobHandler,
  type JobsLogger,
  type JobsPort,
  type JobsSnapshot,
  type RetryPolicy,
  type ScheduleInfo,
} from './jobs.port';

export interface BullmqJobsOptions {
  /** `redis://host:port[/db]`; the adapter opens its own connections. */
  url: string;
  /** BullMQ key prefix: instances (and tests) with different prefixes never see each other. */
  prefix?: string;
  queueName?: string;
  retry?: RetryPolicy;
  logger?: JobsLogger;
  /** A cron run due more than this before start() was missed while nobody ran (default 1 s). */
  missedToleranceMs?: number;
  /** How often to look for lost Redis data (default 5 s). */
  dataLossCheckMs?: number;
  /** Fires handled at once by this instance (default 5). */
  concurrency?: number;
}

/**
 * The scale-out jobs adapter: BullMQ on Redis. Cron schedules are BullMQ job schedulers (one
 * pending iteration job each), one-shots are delayed jobs, and a Worker in every instance
 * hands fires to the handlers, so each fire goes to one instance. Redis remembers between
 * restarts; upserting an unchanged schedule leaves its pending run alone, so the skip policy
 * (in bullmq-fires.ts) still sees what the downtime missed. When Redis loses its data,
 * onDataLost listeners are told and `rebuild` restores it from the event history.
 */
export class BullmqJobs implements JobsPort {
  private readonly redis: Redis;
  private readonly queue: Queue<AnyJobData>;
  private readonly handlers: FireHandlers;
  private readonly logger: JobsLogger;
  private readonly jobOptions: JobsOptions;
  private readonly watch: DataLossWatch;
  private worker: Worker<AnyJobData> | undefined;
  private startedAt = 0;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: BullmqJobsOptions) {
    this.logger = options.logger ?? new Logger('Jobs');
    this.handlers = new FireHandlers(this.logger);
    // BullMQ's blocking commands need ioredis never to give up on a request.
    this.redis = new Redis(options.url, { maxRetriesPerRequest: null });
    this.redis.on('error', (e) => this.logger.warn(`Redis: ${errorText(e)}`));
    const prefix = options.prefix ?? 'sessionboxer';
    const name = options.queueName ?? 'jobs';
    this.queue = new Queue<AnyJobData>(name, { connection: this.redis, prefix });
    this.queue.on('error', (e) => this.logger.warn(`jobs queue: ${errorText(e)}`));
    const { attempts, backoffMs } = options.retry ?? DEFAULT_RETRY;
    this.jobOptions = {
      attempts,
      backoff: { type: 'exponential', delay: backoffMs },
      removeOnComplete: true,
      removeOnFail: { count: 1000 },
    };
    const marker = `${prefix}:${name}:jobs-port-marker`;
    this.watch = new DataLossWatch(
      this.redis,
      marker,
      options.dataLossCheckMs ?? 5000,
      this.logger,
    );
  }

  async upsertSchedule(schedule: CronSchedule): Promise<ScheduleInfo> {
    const checked = checkSchedule(schedule);
    const existing = await this.queue.getJobScheduler(checked.id);
    // Re-upserting the same schedule (every boot does) must keep its pending run: replacing
    // it would recompute the next run from now and hide what the downtime missed.
    if (!existing || !sameSchedule(existing, checked)) {
      const data: CronJobData = {
        cron: checked.cron,
        timezone: checked.timezone,
        skipMissed: checked.skipMissed,
      };
      await this.queue.upsertJobScheduler(
        checked.id,
        { pattern: checked.cron, tz: checked.timezone },
        { name: CRON_JOB, data, opts: this.jobOptions },
      );
      if (!existing) await this.catchUp(checked);
    }
    const stored = await this.queue.getJobScheduler(checked.id);
    return toInfo(stored ?? { key: checked.id, name: CRON_JOB, pattern: checked.cron });
  }

  async removeSchedule(id: string): Promise<boolean> {
    return this.queue.removeJobScheduler(checkId(id));
  }

  async listSchedules(): Promise<ScheduleInfo[]> {
    const schedulers = await this.queue.getJobSchedulers(0, -1, true);
    return schedulers.map(toInfo);
  }

  async nextRun(id: string): Promise<Date | null> {
    const scheduler = await this.queue.getJobScheduler(checkId(id));
    return scheduler?.next === undefined ? null : new Date(scheduler.next);
  }

  async schedule(job: DelayedJob): Promise<void> {
    const { id, runAt, data } = checkDelayed(job);
    const jobId = delayedJobId(id);
    if (
      (await this.queue.remove(jobId)) === 0 &&
      (await this.queue.getJobState(jobId)) === 'active'
    ) {
      this.logger.warn(`delayed job ${id} is firing right now: the new one is not scheduled`);
      return;
    }
    const jobData: DelayedJobData = { id, runAt: runAt.getTime(), data };
    const delay = Math.max(0, runAt.getTime() - Date.now());
    await this.queue.add(DELAYED_JOB, jobData, { ...this.jobOptions, jobId, delay });
  }

  async cancel(id: string): Promise<boolean> {
    const jobId = delayedJobId(checkId(id));
    const state = await this.queue.getJobState(jobId);
    if (!PENDING.has(state)) return false;
    return (await this.queue.remove(jobId)) === 1;
  }

  onFire(handler: JobHandler): () => void {
    return this.handlers.add(handler);
  }

  onDataLost(listener: () => void | Promise<void>): () => void {
    return this.watch.add(listener);
  }

  /** True when Redis no longer holds this adapter's data; the watch calls onDataLost too. */
  async dataLost(): Promise<boolean> {
    return this.watch.check();
  }

  async rebuild(snapshot: JobsSnapshot): Promise<void> {
    const keep = new Set(snapshot.schedules.map((s) => s.id));
    for (const scheduler of await this.queue.getJobSchedulers()) {
      if (!keep.has(scheduler.key)) await this.queue.removeJobScheduler(scheduler.key);
    }
    const pending = await this.queue.getJobs(['delayed', 'waiting', 'prioritized']);
    const keepDelayed = new Set(snapshot.delayed.map((j) => delayedJobId(j.id)));
    for (const job of pending) {
      if (job.name === DELAYED_JOB && job.id && !keepDelayed.has(job.id)) await job.remove();
    }
    for (const schedule of snapshot.schedules) await this.upsertSchedule(schedule);
    for (const job of snapshot.delayed) await this.schedule(job);
  }

  async start(): Promise<void> {
    if (this.worker) return;
    this.startedAt = Date.now();
    await this.watch.start();
    this.worker = new Worker<AnyJobData>(this.queue.name, (job) => this.process(job), {
      connection: this.redis,
      prefix: this.options.prefix ?? 'sessionboxer',
      concurrency: this.options.concurrency ?? 5,
    });
    this.worker.on('failed', (job, e) => this.failed(job, e));
    this.worker.on('error', (e) => this.logger.warn(`jobs worker: ${errorText(e)}`));
    await this.worker.waitUntilReady();
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.watch.stop();
    await this.worker?.close();
    await this.queue.close();
    await this.redis.quit().catch(() => undefined);
  }

  private async process(job: Job<AnyJobData>): Promise<void> {
    const decision = decide(job, {
      startedAt: this.startedAt,
      missedToleranceMs: this.options.missedToleranceMs ?? 1000,
    });
    if ('skip' in decision) {
      this.logger.log(decision.skip);
      return;
    }
    await this.handlers.deliver(decision.fire);
  }

  private failed(job: Job<AnyJobData> | undefined, e: Error): void {
    if (!job) {
      this.logger.error(`a job failed: ${e.message}`);
      return;
    }
    const decision = decide(job, { startedAt: 0, missedToleranceMs: 0 });
    const what = 'fire' in decision ? describeFire(decision.fire) : `job ${job.id ?? '?'}`;
    const attempts = job.opts.attempts ?? 1;
    const line = `${what}: handler failed (attempt ${job.attemptsMade} of ${attempts})`;
    if (job.attemptsMade >= attempts) this.logger.error(`${line}, giving up: ${e.message}`);
    else this.logger.warn(`${line}, retrying: ${e.message}`);
  }

  /** Redis did not hold this schedule: fire the run missed since lastRunAt if asked to. */
  private async catchUp(schedule: CheckedSchedule): Promise<void> {
    if (!schedule.lastRunAt) return;
    const { id, cron, timezone, lastRunAt } = schedule;
    const missed = lastMissedOccurrence(cron, timezone, lastRunAt, new Date());
    if (!missed) return;
    if (schedule.skipMissed) {
      this.logger.log(
        `skipped the run(s) of cron job ${id} missed since ${lastRunAt.toISOString()} (skipMissed)`,
      );
      return;
    }
    const at = missed.getTime();
    const data: CatchUpJobData = { id, scheduledFor: at };
    await this.queue.add(CATCH_UP_JOB, data, { ...this.jobOptions, jobId: catchUpJobId(id, at) });
  }
}
