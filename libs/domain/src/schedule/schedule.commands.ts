import type { Command } from '../kernel';

/** Prompt texts of a scheduled task: the spec's 1–20,000 characters. */
export const SCHEDULE_TEXT_MAX = 20_000;
export const SCHEDULE_NAME_MAX = 200;
/** Repositories one new_session action may name, and the length of each name. */
export const SCHEDULE_REPOS_MAX = 20;
export const SCHEDULE_REPO_MAX_LENGTH = 200;
/** A cron pattern's text (its fields are checked by the jobs' cron rules in the app). */
export const SCHEDULE_CRON_MAX_LENGTH = 200;

/** What a run does, as recorded: defaults filled in. */
export type ScheduleAction =
  | { type: 'prompt'; sessionId: string; text: string }
  | {
      type: 'new_session';
      title: string | null;
      provider: string | null;
      repos: string[];
      prompt: string;
      stopAfter: boolean;
    };

/** An action as a caller gives it: repos default to [] and stopAfter to true. */
export type ScheduleActionInput =
  | { type: 'prompt'; sessionId: string; text: string }
  | {
      type: 'new_session';
      title?: string | null;
      provider?: string | null;
      repos?: string[];
      prompt: string;
      stopAfter?: boolean;
    };

/** The session whose agent created the schedule (schedule_create), or null for a person's. */
export type ScheduleCreator = { sessionId: string } | null;

/**
 * The cron pattern and time zone are checked by the app (the jobs' cron rules) before this
 * command; the domain checks their shape only, so it needs no cron library.
 */
export type CreateSchedule = Command<
  'CreateSchedule',
  {
    scheduleId: string;
    name: string;
    cron: string;
    timezone: string;
    action: ScheduleActionInput;
    /** The skip policy: runs missed while Sessionboxer was down are skipped. Default true. */
    skipMissed?: boolean;
    createdBy: ScheduleCreator;
  }
>;

export type SetScheduleEnabled = Command<
  'SetScheduleEnabled',
  { scheduleId: string; enabled: boolean }
>;

/** Changes the skip policy of an existing schedule; the same value again records nothing. */
export type SetScheduleSkipPolicy = Command<
  'SetScheduleSkipPolicy',
  { scheduleId: string; skipMissed: boolean }
>;

export type DeleteSchedule = Command<'DeleteSchedule', { scheduleId: string }>;

/** One fire's result; a second record for the same occurrence records nothing. */
export type RecordScheduleRun = Command<
  'RecordScheduleRun',
  { scheduleId: string; scheduledFor: string; outcome: ScheduleRunOutcome }
>;

/** How a run went; `sessionId`: the session it started or prompted (absent when it failed). */
export interface ScheduleRunOutcome {
  ok: boolean;
  detail: string;
  sessionId?: string;
}

export type ScheduleCommand =
  CreateSchedule | SetScheduleEnabled | SetScheduleSkipPolicy | DeleteSchedule | RecordScheduleRun;
