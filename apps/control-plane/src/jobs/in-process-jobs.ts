import { Logger } from '@nestjs/common';
import {
  checkDelayed,
  checkId,
  checkSchedule,
  lastMissedOccurrence,
  nextOccurrence,
  type CheckedSchedule,
} from './cron';
import { describeFire, errorText, FireHandlers } from './fire-handlers';
import {
  DEFAULT_RETRY,
  type CronSchedule,
  type DelayedJob,
  type JobFire,
  type JobHandler,
  type JobsLogger,
  type JobsPort,
  type JobsSnapshot,
  type RetryPolicy,
  type ScheduleInfo,
} from './jobs.port';
import { cancellableSleep, timerAt, type TimerHandle } from './long-timer';

export interface InProcessJobsOptions {
  retry?: RetryPolicy;
  logger?: JobsLogger;
}

interface CronEntry {
  schedule: CheckedSchedule;
  next: Date;
  /** New to this adapter: its lastRunAt still has to be checked for a missed run. */
  catchUpPending: boolean;
  timer?: TimerHandle;
}

interface DelayedEntry {
  job: DelayedJob;
  timer?: TimerHandle;
}

/**
 * The embedded jobs adapter: timers in this process, state in memory. It persists nothing: at
 * boot the control plane replays the event history into upsertSchedule / schedule (with each
 * schedule's lastRunAt) and then calls start(), which applies the skip policy to what the
 * downtime missed and fires the one-shots that fell due meanwhile.
 */
export class InProcessJobs implements JobsPort {
  private readonly schedules = new Map<string, CronEntry>();
  private readonly delayed = new Map<string, DelayedEntry>();
  private readonly handlers: FireHandlers;
  private readonly logger: JobsLogger;
  private readonly retry: RetryPolicy;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly sleeps = new Set<() => void>();
  private state: 'new' | 'running' | 'closed' = 'new';

  /** A getter, so TypeScript does not narrow `state` across an await. */
  private get closed(): boolean {
    return this.state === 'closed';
  }

  constructor(options: InProcessJobsOptions = {}) {
    this.logger = options.logger ?? new Logger('Jobs');
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.handlers = new FireHandlers(this.logger);
  }

  upsertSchedule(schedule: CronSchedule): Promise<ScheduleInfo> {
    return settle(() => {
      const checked = checkSchedule(schedule);
      const previous = this.schedules.get(checked.id);
      previous?.timer?.cancel();
      const now = new Date();
      const entry: CronEntry = {
        schedule: checked,
        next: this.nextAfter(checked, now),
        catchUpPending: !previous,
      };
      this.schedules.set(checked.id, entry);
      if (this.state === 'running') this.activate(entry, now);
      return info(entry);
    });
  }

  removeSchedule(id: string): Promise<boolean> {
    return settle(() => {
      this.schedules.get(checkId(id))?.timer?.cancel();
      return this.schedules.delete(id);
    });
  }

  listSchedules(): Promise<ScheduleInfo[]> {
    return settle(() => [...this.schedules.values()].map(info));
  }

  nextRun(id: string): Promise<Date | null> {
    return settle(() => this.schedules.get(checkId(id))?.next ?? null);
  }

  schedule(job: DelayedJob): Promise<void> {
    return settle(() => {
      const checked = checkDelayed(job);
      this.delayed.get(checked.id)?.timer?.cancel();
      const entry: DelayedEntry = { job: checked };
      this.delayed.set(checked.id, entry);
      if (this.state === 'running') this.armDelayed(entry);
    });
  }

  cancel(id: string): Promise<boolean> {
    return settle(() => {
      this.delayed.get(checkId(id))?.timer?.cancel();
      return this.delayed.delete(id);
    });
  }

  onFire(handler: JobHandler): () => void {
    return this.handlers.add(handler);
  }

  /** Nothing behind this adapter can lose data on its own, so the listener is never called. */
  onDataLost(_listener: () => void | Promise<void>): () => void {
    return () => undefined;
  }

  async rebuild(snapshot: JobsSnapshot): Promise<void> {
    for (const entry of this.schedules.values()) entry.timer?.cancel();
    for (const entry of this.delayed.values()) entry.timer?.cancel();
    this.schedules.clear();
    this.delayed.clear();
    const wasRunning = this.state === 'running';
    if (wasRunning) this.state = 'new';
    for (const schedule of snapshot.schedules) await this.upsertSchedule(schedule);
    for (const job of snapshot.delayed) await this.schedule(job);
    if (wasRunning) await this.start();
  }

  start(): Promise<void> {
    if (this.state !== 'new') return Promise.resolve();
    this.state = 'running';
    const now = new Date();
    for (const entry of this.schedules.values()) this.activate(entry, now);
    for (const entry of this.delayed.values()) this.armDelayed(entry);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.state = 'closed';
    for (const entry of this.schedules.values()) entry.timer?.cancel();
    for (const entry of this.delayed.values()) entry.timer?.cancel();
    for (const cancel of this.sleeps) cancel();
    await Promise.allSettled([...this.inFlight]);
  }

  /** Arms a schedule, first applying the skip policy if it is new to this adapter. */
  private activate(entry: CronEntry, now: Date): void {
    if (entry.catchUpPending) this.catchUp(entry.schedule, now);
    entry.catchUpPending = false;
    this.arm(entry, now);
  }

  /** The skip policy for one schedule, from the lastRunAt the caller passed. */
  private catchUp(schedule: CheckedSchedule, now: Date): void {
    if (!schedule.lastRunAt) return;
    const missed = lastMissedOccurrence(schedule.cron, schedule.timezone, schedule.lastRunAt, now);
    if (!missed) return;
    if (schedule.skipMissed) {
      this.logger.log(
        `skipped the run(s) of cron job ${schedule.id} missed since ` +
          `${schedule.lastRunAt.toISOString()} (skipMissed)`,
      );
      return;
    }
    this.dispatch({ kind: 'cron', id: schedule.id, scheduledFor: missed, firedAt: new Date() });
  }

  private nextAfter(schedule: CheckedSchedule, after: Date): Date {
    return nextOccurrence(schedule.cron, schedule.timezone, after);
  }

  private arm(entry: CronEntry, after: Date): void {
    const scheduledFor = this.nextAfter(entry.schedule, after);
    entry.next = scheduledFor;
    entry.timer = timerAt(scheduledFor, () => {
      if (this.schedules.get(entry.schedule.id) !== entry || this.state !== 'running') return;
      const firedAt = new Date();
      // Occurrences that passed while the event loop was blocked are skipped, not queued.
      this.arm(entry, firedAt > scheduledFor ? firedAt : scheduledFor);
      this.dispatch({ kind: 'cron', id: entry.schedule.id, scheduledFor, firedAt });
    });
  }

  private armDelayed(entry: DelayedEntry): void {
    const { id, runAt, data } = entry.job;
    entry.timer = timerAt(runAt, () => {
      if (this.delayed.get(id) !== entry || this.state !== 'running') return;
      this.delayed.delete(id);
      this.dispatch({ kind: 'delayed', id, scheduledFor: runAt, firedAt: new Date(), data });
    });
  }

  private dispatch(fire: JobFire): void {
    const run = this.deliverWithRetry(fire).finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private async deliverWithRetry(fire: JobFire): Promise<void> {
    const { attempts, backoffMs } = this.retry;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await this.handlers.deliver(fire);
        return;
      } catch (e) {
        const what = `${describeFire(fire)}: handler failed (attempt ${attempt} of ${attempts})`;
        if (attempt === attempts) {
          this.logger.error(`${what}, giving up: ${errorText(e)}`);
          return;
        }
        this.logger.warn(`${what}, retrying: ${errorText(e)}`);
        if (!(await this.pause(backoffMs * 2 ** (attempt - 1)))) return;
      }
    }
  }

  /** False when close() cut the pause short: the retry is abandoned with the process. */
  private async pause(ms: number): Promise<boolean> {
    if (this.state === 'closed') return false;
    const { done, cancel } = cancellableSleep(ms);
    this.sleeps.add(cancel);
    const completed = await done;
    this.sleeps.delete(cancel);
    return completed && !this.closed;
  }
}

/** Runs `fn` now; what it throws becomes a rejection, as an adapter talking to Redis would. */
function settle<T>(fn: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(fn()));
}

function info(entry: CronEntry): ScheduleInfo {
  const { id, cron, timezone, skipMissed } = entry.schedule;
  return { id, cron, timezone, skipMissed, nextRunAt: entry.next };
}
