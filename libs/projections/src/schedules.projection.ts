import {
  isScheduleEvent,
  type ScheduleAction,
  type ScheduleCreator,
  type ScheduleEvent,
} from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

/**
 * Every scheduled task on the control plane, as schedule_list, the admin API and the boot
 * (which upserts each enabled one into the jobs adapter) read them. `nextRunAt` is not kept
 * here: it depends on the clock, so the app computes it from the cron pattern when it answers.
 */
export interface ScheduleDoc {
  id: string;
  name: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  action: ScheduleAction;
  skipMissed: boolean;
  createdBy: ScheduleCreator;
  createdAt: string;
  /** The occurrence the latest run was for (the skip policy starts from it), or null. */
  lastRunAt: string | null;
  /** How the latest run went. */
  lastRun: { ok: boolean; detail: string; at: string } | null;
  /** The latest runs, newest first (at most SCHEDULE_RUNS_KEPT), each with its session. */
  runs: ScheduleRunDoc[];
}

export interface ScheduleRunDoc {
  scheduledFor: string;
  ok: boolean;
  detail: string;
  at: string;
  /** The session it started or prompted; null when it failed (or was recorded before). */
  sessionId: string | null;
}

/** How many runs a schedule's document keeps (the event log keeps every one). */
export const SCHEDULE_RUNS_KEPT = 20;

function change(event: ScheduleEvent, doc: ScheduleDoc | null): ScheduleDoc | null {
  switch (event.type) {
    case 'ScheduleCreated': {
      const {
        scheduleId: id,
        name,
        cron,
        timezone,
        action,
        skipMissed,
        createdBy,
        at,
      } = event.data;
      const fresh = { enabled: true, lastRunAt: null, lastRun: null, runs: [] };
      return { id, name, cron, timezone, action, skipMissed, createdBy, createdAt: at, ...fresh };
    }
    case 'ScheduleEnabled':
    case 'ScheduleDisabled':
      return doc && { ...doc, enabled: event.type === 'ScheduleEnabled' };
    case 'ScheduleSkipPolicyChanged':
      return doc && { ...doc, skipMissed: event.data.skipMissed };
    case 'ScheduleDeleted':
      return null;
    case 'ScheduleRunRecorded': {
      const { scheduledFor, outcome, at } = event.data;
      if (!doc) return null;
      const { ok, detail } = outcome;
      const run = { scheduledFor, ok, detail, at, sessionId: outcome.sessionId ?? null };
      const runs = [run, ...doc.runs].slice(0, SCHEDULE_RUNS_KEPT);
      return { ...doc, lastRunAt: scheduledFor, lastRun: { ok, detail, at }, runs };
    }
  }
}

function apply(
  event: RecordedEvent,
  get: (id: string) => ScheduleDoc | null,
): DocumentChange<ScheduleDoc>[] {
  if (!isScheduleEvent(event)) return [];
  const id = event.data.scheduleId;
  const before = get(id);
  const doc = change(event, before);
  if (doc === null && before === null) return [];
  // Created in creation order; later changes keep their place (order left out).
  const order = event.type === 'ScheduleCreated' ? { order: event.position } : {};
  return [{ id, ...order, doc }];
}

export const schedulesProjection: Projection<ScheduleDoc> = {
  name: 'schedules',
  // 3: the latest runs and the session each started.
  version: 3,
  handles: [
    'ScheduleCreated',
    'ScheduleEnabled',
    'ScheduleDisabled',
    'ScheduleSkipPolicyChanged',
    'ScheduleDeleted',
    'ScheduleRunRecorded',
  ],
  apply,
};

export interface ScheduleQueries {
  get(id: string): ScheduleDoc | null;
  /** Every schedule, oldest first (deleted ones are gone). */
  list(): ScheduleDoc[];
}

export function scheduleQueries(reader: ReadModelReader): ScheduleQueries {
  return {
    get: (id) => reader.get(schedulesProjection, id),
    list: () => reader.list(schedulesProjection, { partition: '' }).map((d) => d.doc),
  };
}
