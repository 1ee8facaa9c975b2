import type { DomainEvent } from '../kernel';
import type { ScheduleAction, ScheduleCreator, ScheduleRunOutcome } from './schedule.commands';

export type ScheduleCreated = DomainEvent<
  'ScheduleCreated',
  {
    scheduleId: string;
    name: string;
    cron: string;
    timezone: string;
    action: ScheduleAction;
    skipMissed: boolean;
    createdBy: ScheduleCreator;
    at: string;
  }
>;
export type ScheduleEnabled = DomainEvent<'ScheduleEnabled', { scheduleId: string; at: string }>;
export type ScheduleDisabled = DomainEvent<'ScheduleDisabled', { scheduleId: string; at: string }>;
/** The skip policy as it is from now on: runs missed while Sessionboxer was down are skipped. */
export type ScheduleSkipPolicyChanged = DomainEvent<
  'ScheduleSkipPolicyChanged',
  { scheduleId: string; skipMissed: boolean; at: string }
>;
export type ScheduleDeleted = DomainEvent<'ScheduleDeleted', { scheduleId: string; at: string }>;
export type ScheduleRunRecorded = DomainEvent<
  'ScheduleRunRecorded',
  {
    scheduleId: string;
    /** The occurrence this run was for (ISO-8601, UTC). */
    scheduledFor: string;
    /** Events recorded before runs named their session have no `sessionId`. */
    outcome: ScheduleRunOutcome;
    at: string;
  }
>;

export type ScheduleEvent =
  | ScheduleCreated
  | ScheduleEnabled
  | ScheduleDisabled
  | ScheduleSkipPolicyChanged
  | ScheduleDeleted
  | ScheduleRunRecorded;

export const SCHEDULE_EVENT_TYPES: readonly ScheduleEvent['type'][] = [
  'ScheduleCreated',
  'ScheduleEnabled',
  'ScheduleDisabled',
  'ScheduleSkipPolicyChanged',
  'ScheduleDeleted',
  'ScheduleRunRecorded',
];

export function isScheduleEvent(event: { type: string }): event is ScheduleEvent {
  return (SCHEDULE_EVENT_TYPES as readonly string[]).includes(event.type);
}
