import type { ScheduleView } from '@sessionboxer/contracts';
import type { ScheduleDoc } from '@sessionboxer/projections';
import type { CronSchedule } from '../jobs';
import { nextOccurrence } from '../jobs';

/** A schedule as schedule_list and GET /api/schedules answer it; nextRunAt from the cron. */
export function scheduleView(doc: ScheduleDoc, now: Date): ScheduleView {
  const { id, name, cron, timezone, enabled, action, skipMissed, lastRunAt } = doc;
  const nextRunAt = enabled ? nextOccurrence(cron, timezone, now).toISOString() : null;
  const runs = doc.runs.map(({ scheduledFor, ok, detail, sessionId }) => ({
    scheduledFor,
    ok,
    detail,
    sessionId,
  }));
  return { id, name, cron, timezone, enabled, action, skipMissed, nextRunAt, lastRunAt, runs };
}

/**
 * The schedule as the jobs adapter takes it. lastRunAt (the last run, else the creation) is
 * where the skip policy starts after a restart or a Redis that lost its data.
 */
export function cronSchedule(doc: ScheduleDoc): CronSchedule {
  const { id, cron, timezone, skipMissed } = doc;
  return { id, cron, timezone, skipMissed, lastRunAt: new Date(doc.lastRunAt ?? doc.createdAt) };
}
