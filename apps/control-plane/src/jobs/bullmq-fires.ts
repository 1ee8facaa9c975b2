import type { Job, JobSchedulerJson } from 'bullmq';
import { previousOccurrence, type CheckedSchedule } from './cron';
import type { JobFire, ScheduleInfo } from './jobs.port';

/**
 * What the BullMQ adapter keeps in Redis (job schedulers, jobs), and how a job it pulls from
 * Redis becomes a fire or a skipped run. Kept apart from the adapter so the skip decision
 * reads in one place.
 */

/** Job names in the queue; one queue holds all three. */
export const CRON_JOB = 'cron';
export const CATCH_UP_JOB = 'cron-catch-up';
export const DELAYED_JOB = 'delayed';

/** Template data of a job scheduler, copied into every iteration job. */
export interface CronJobData {
  cron: string;
  timezone: string;
  skipMissed: boolean;
}

/** The one missed run of a schedule Redis had lost, fired because skipMissed is false. */
export interface CatchUpJobData {
  id: string;
  scheduledFor: number;
}

export interface DelayedJobData {
  id: string;
  runAt: number;
  data?: unknown;
}

export type AnyJobData = CronJobData | CatchUpJobData | DelayedJobData;

/** A one-shot in one of these states has not fired yet. */
export const PENDING = new Set(['delayed', 'waiting', 'prioritized', 'waiting-children']);

/** BullMQ refuses integer custom ids; the prefix also keeps one-shots apart from schedulers. */
export const delayedJobId = (id: string): string => `delayed-${id}`;
export const catchUpJobId = (id: string, at: number): string => `catch-up-${id}-${at}`;

export type Decision = { fire: JobFire } | { skip: string };

export interface SkipContext {
  /** When this adapter instance started its worker (ms). */
  startedAt: number;
  /** A cron run due earlier than startedAt minus this was missed while nobody was running. */
  missedToleranceMs: number;
}

/**
 * Turns one job into a fire, or into a skip when it is a cron run missed while the
 * scheduler was down and its schedule skips missed runs. A job scheduler keeps exactly one
 * pending iteration, so after downtime BullMQ hands over the first missed run once; with
 * skipMissed: false it stands for the most recent missed occurrence, as the port promises.
 */
export function decide(job: Job, context: SkipContext): Decision {
  const firedAt = new Date();
  switch (job.name) {
    case CRON_JOB:
      return decideCron(job, context, firedAt);
    case CATCH_UP_JOB: {
      const data = job.data as CatchUpJobData;
      return {
        fire: { kind: 'cron', id: data.id, scheduledFor: new Date(data.scheduledFor), firedAt },
      };
    }
    case DELAYED_JOB: {
      const data = job.data as DelayedJobData;
      const scheduledFor = new Date(data.runAt);
      return { fire: { kind: 'delayed', id: data.id, scheduledFor, firedAt, data: data.data } };
    }
    default:
      return { skip: `job ${job.id ?? '?'} has the unknown name ${job.name}` };
  }
}

function decideCron(job: Job, context: SkipContext, firedAt: Date): Decision {
  const id = job.repeatJobKey;
  if (!id) return { skip: `cron job ${job.id ?? '?'} has no scheduler id` };
  const data = job.data as CronJobData;
  const scheduledFor = new Date(job.opts.prevMillis ?? job.timestamp + (job.opts.delay ?? 0));
  // A retry, or a run whose worker died mid-handler (stalled, so started twice), is a run
  // being finished for at-least-once delivery, never a missed one.
  const begunBefore = job.attemptsMade > 0 || job.attemptsStarted > 1 || job.stalledCounter > 0;
  const missed =
    !begunBefore && scheduledFor.getTime() < context.startedAt - context.missedToleranceMs;
  if (!missed) return { fire: { kind: 'cron', id, scheduledFor, firedAt } };
  if (data.skipMissed !== false) {
    return {
      skip:
        `skipped the run(s) of cron job ${id} missed while the scheduler was down ` +
        `(first was due ${scheduledFor.toISOString()}; skipMissed)`,
    };
  }
  const latest = previousOccurrence(data.cron, data.timezone, new Date(context.startedAt));
  return { fire: { kind: 'cron', id, scheduledFor: latest, firedAt } };
}

/** Whether Redis already holds this schedule as given (so upserting it must not touch it). */
export function sameSchedule(existing: JobSchedulerJson, schedule: CheckedSchedule): boolean {
  const data = existing.template?.data as Partial<CronJobData> | undefined;
  return (
    existing.pattern === schedule.cron &&
    (existing.tz ?? 'UTC') === schedule.timezone &&
    data?.skipMissed === schedule.skipMissed
  );
}

/** A job scheduler as the port lists it. */
export function toInfo(scheduler: JobSchedulerJson): ScheduleInfo {
  const data = scheduler.template?.data as Partial<CronJobData> | undefined;
  return {
    id: scheduler.key,
    cron: scheduler.pattern ?? '',
    timezone: scheduler.tz ?? 'UTC',
    skipMissed: data?.skipMissed !== false,
    nextRunAt: scheduler.next === undefined ? null : new Date(scheduler.next),
  };
}
