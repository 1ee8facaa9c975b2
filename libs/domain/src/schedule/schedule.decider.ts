import { assertNever, DomainError, ErrorCode, type Decider } from '../kernel';
import { bool, exactId, text } from '../kernel/validation';
import { SCHEDULE_NAME_MAX, type ScheduleCommand } from './schedule.commands';
import type { ScheduleEvent } from './schedule.events';
import { creator, cronShape, scheduleAction } from './schedule.validation';

/**
 * A scheduled task (stream `schedule-<id>`): on a cron pattern, prompt a session or start a
 * new one. The jobs adapter fires it; this aggregate records what it is, whether it is on,
 * and each run's outcome, so a restart knows the last run (the skip policy's starting point).
 */
export type ScheduleState =
  | { status: 'absent' }
  | { status: 'deleted'; scheduleId: string }
  | {
      status: 'active';
      scheduleId: string;
      enabled: boolean;
      /** The skip policy: runs missed while Sessionboxer was down are skipped. */
      skipMissed: boolean;
      /** The latest occurrence a run was recorded for, or null. */
      lastRunFor: string | null;
    };

export function scheduleStream(scheduleId: string): string {
  return `schedule-${exactId(scheduleId, 'scheduleId')}`;
}

type Active = Extract<ScheduleState, { status: 'active' }>;

function existing(state: ScheduleState, id: string): Active {
  if (state.status === 'absent') {
    throw new DomainError(ErrorCode.NotFound, `schedule ${id} does not exist`);
  }
  if (state.status === 'deleted') {
    throw new DomainError(ErrorCode.NotFound, `schedule ${id} was deleted`);
  }
  return state;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** ISO-8601 in UTC as toISOString writes it (fixed width, `Z`), so occurrences compare as text. */
function instant(value: unknown, field: string): string {
  if (typeof value !== 'string' || !ISO_UTC.test(value)) {
    throw new DomainError(
      ErrorCode.ValidationFailed,
      `${field} must be an ISO-8601 UTC time such as 2026-01-02T09:00:00.000Z`,
      { field },
    );
  }
  return value;
}

function create(
  command: Extract<ScheduleCommand, { type: 'CreateSchedule' }>,
  state: ScheduleState,
): ScheduleEvent[] {
  const d = command.data;
  if (state.status !== 'absent') {
    throw new DomainError(ErrorCode.AlreadyExists, `schedule ${d.scheduleId} already exists`);
  }
  const data = {
    scheduleId: exactId(d.scheduleId, 'scheduleId'),
    name: text(d.name, 'name', SCHEDULE_NAME_MAX),
    cron: cronShape(d.cron),
    timezone: text(d.timezone, 'timezone', 100),
    action: scheduleAction(d.action),
    skipMissed: d.skipMissed === undefined ? true : bool(d.skipMissed, 'skipMissed'),
    createdBy: creator(d.createdBy),
    at: command.metadata.at,
  };
  return [{ type: 'ScheduleCreated', data }];
}

function run(
  command: Extract<ScheduleCommand, { type: 'RecordScheduleRun' }>,
  state: ScheduleState,
): ScheduleEvent[] {
  const s = existing(state, command.data.scheduleId);
  const scheduledFor = instant(command.data.scheduledFor, 'scheduledFor');
  // A fire is delivered at least once: a second record of the same (or an older) run is a no-op.
  if (s.lastRunFor !== null && scheduledFor <= s.lastRunFor) return [];
  const { ok, detail, sessionId } = command.data.outcome;
  const checked = { ok: bool(ok, 'outcome.ok'), detail: text(detail, 'outcome.detail', 2000) };
  const outcome =
    sessionId === undefined
      ? checked
      : { ...checked, sessionId: exactId(sessionId, 'outcome.sessionId') };
  const data = { scheduleId: s.scheduleId, scheduledFor, outcome, at: command.metadata.at };
  return [{ type: 'ScheduleRunRecorded', data }];
}

function decide(command: ScheduleCommand, state: ScheduleState): ScheduleEvent[] {
  const { at } = command.metadata;
  switch (command.type) {
    case 'CreateSchedule':
      return create(command, state);
    case 'SetScheduleEnabled': {
      const s = existing(state, command.data.scheduleId);
      const enabled = bool(command.data.enabled, 'enabled');
      if (enabled === s.enabled) return [];
      const data = { scheduleId: s.scheduleId, at };
      return [enabled ? { type: 'ScheduleEnabled', data } : { type: 'ScheduleDisabled', data }];
    }
    case 'SetScheduleSkipPolicy': {
      const s = existing(state, command.data.scheduleId);
      const skipMissed = bool(command.data.skipMissed, 'skipMissed');
      if (skipMissed === s.skipMissed) return [];
      const data = { scheduleId: s.scheduleId, skipMissed, at };
      return [{ type: 'ScheduleSkipPolicyChanged', data }];
    }
    case 'DeleteSchedule': {
      const s = existing(state, command.data.scheduleId);
      return [{ type: 'ScheduleDeleted', data: { scheduleId: s.scheduleId, at } }];
    }
    case 'RecordScheduleRun':
      return run(command, state);
    default:
      return assertNever(command);
  }
}

function evolve(state: ScheduleState, event: ScheduleEvent): ScheduleState {
  switch (event.type) {
    case 'ScheduleCreated':
      return {
        status: 'active',
        scheduleId: event.data.scheduleId,
        enabled: true,
        skipMissed: event.data.skipMissed,
        lastRunFor: null,
      };
    case 'ScheduleEnabled':
    case 'ScheduleDisabled':
      return state.status === 'active'
        ? { ...state, enabled: event.type === 'ScheduleEnabled' }
        : state;
    case 'ScheduleSkipPolicyChanged':
      return state.status === 'active' ? { ...state, skipMissed: event.data.skipMissed } : state;
    case 'ScheduleDeleted':
      return { status: 'deleted', scheduleId: event.data.scheduleId };
    case 'ScheduleRunRecorded':
      return state.status === 'active' ? { ...state, lastRunFor: event.data.scheduledFor } : state;
    default:
      return assertNever(event);
  }
}

export const scheduleDecider: Decider<ScheduleCommand, ScheduleEvent, ScheduleState> = {
  decide,
  evolve,
  initialState: { status: 'absent' },
};
