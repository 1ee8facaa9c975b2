import { CronExpressionParser, type CronExpression } from 'cron-parser';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { CronSchedule, DelayedJob } from './jobs.port';

/**
 * Cron arithmetic and the checks both jobs adapters share, so an in-process schedule and a
 * BullMQ one refuse the same patterns and agree on when they run. BullMQ computes its own
 * next runs with the same cron-parser (pinned to the version BullMQ depends on).
 */

const ID_PATTERN = /^[A-Za-z0-9._-]{1,200}$/;

function invalid(field: string, message: string): DomainError {
  return new DomainError(ErrorCode.ValidationFailed, message, { field });
}

/**
 * Ids end up in BullMQ job ids (`repeat:<id>:<millis>`), where a `:` would be refused, so both
 * adapters accept only letters, digits, `.`, `_` and `-`.
 */
export function checkId(id: unknown): string {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw invalid(
      'id',
      `id must be 1–200 characters of letters, digits, ".", "_" or "-", got ${JSON.stringify(id)}`,
    );
  }
  return id;
}

/** An IANA time zone the runtime knows (`Europe/Paris`, `UTC`); returns it unchanged. */
export function checkTimezone(timezone: unknown): string {
  if (typeof timezone !== 'string' || timezone.trim() === '') {
    throw invalid('timezone', `timezone must be an IANA time zone such as "Europe/Paris"`);
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw invalid(
      'timezone',
      `timezone ${JSON.stringify(timezone)} is not an IANA time zone (e.g. "Europe/Paris", "UTC")`,
    );
  }
  return timezone;
}

/**
 * Five fields (minute hour day-of-month month day-of-week) or six (seconds first). cron-parser
 * alone would accept fewer fields, an empty string and `@daily`, so the count is checked here.
 */
export function checkCron(cron: unknown): string {
  if (typeof cron !== 'string') throw invalid('cron', 'cron must be a string');
  const fields = cron.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5 && fields.length !== 6) {
    throw invalid(
      'cron',
      `cron ${JSON.stringify(cron)} has ${fields.length} field(s); expected 5 ` +
        `(minute hour day-of-month month day-of-week) or 6 (seconds first)`,
    );
  }
  try {
    CronExpressionParser.parse(cron, { tz: 'UTC' }).next();
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw invalid('cron', `cron ${JSON.stringify(cron)} is not a valid pattern: ${why}`);
  }
  return cron.trim();
}

/** A Date that is a real instant (not `new Date('nonsense')`). */
export function checkDate(value: unknown, field: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw invalid(field, `${field} must be a valid Date`);
  }
  return value;
}

function expression(cron: string, timezone: string, at: Date): CronExpression {
  return CronExpressionParser.parse(checkCron(cron), {
    tz: checkTimezone(timezone),
    currentDate: at,
  });
}

/**
 * The first occurrence of `cron` in `timezone` strictly after `after`. Pure: same inputs, same
 * answer, whatever the machine's own time zone.
 */
export function nextOccurrence(cron: string, timezone: string, after: Date): Date {
  return expression(cron, timezone, after).next().toDate();
}

/** The last occurrence of `cron` in `timezone` at or before `atOrBefore`. */
export function previousOccurrence(cron: string, timezone: string, atOrBefore: Date): Date {
  // cron-parser's prev() is strictly before its current date; 1 ms later makes it inclusive.
  return expression(cron, timezone, new Date(atOrBefore.getTime() + 1))
    .prev()
    .toDate();
}

/**
 * The single most recent occurrence that fell in (`since`, `now`], or null when none did: the
 * run a restart missed, which skipMissed: false fires once.
 */
export function lastMissedOccurrence(
  cron: string,
  timezone: string,
  since: Date,
  now: Date,
): Date | null {
  if (now.getTime() <= since.getTime()) return null;
  const last = previousOccurrence(cron, timezone, now);
  return last.getTime() > since.getTime() ? last : null;
}

/** A schedule once checked, with its defaults filled in. */
export interface CheckedSchedule {
  id: string;
  cron: string;
  timezone: string;
  skipMissed: boolean;
  lastRunAt?: Date;
}

/** Checks a schedule as both adapters accept it (see CronSchedule). */
export function checkSchedule(schedule: CronSchedule): CheckedSchedule {
  const checked: CheckedSchedule = {
    id: checkId(schedule.id),
    cron: checkCron(schedule.cron),
    timezone: checkTimezone(schedule.timezone ?? 'UTC'),
    skipMissed: schedule.skipMissed ?? true,
  };
  if (typeof checked.skipMissed !== 'boolean') {
    throw invalid('skipMissed', 'skipMissed must be true or false');
  }
  if (schedule.lastRunAt !== undefined)
    checked.lastRunAt = checkDate(schedule.lastRunAt, 'lastRunAt');
  return checked;
}

/** Checks a one-shot job as both adapters accept it (see DelayedJob). */
export function checkDelayed(job: DelayedJob): DelayedJob {
  return { id: checkId(job.id), runAt: checkDate(job.runAt, 'runAt'), data: job.data };
}
