// The Settings page's bodies: global settings, agents' credentials, scheduled tasks.
import type { CredentialName, PublicSettings, ScheduleAction } from '@sessionboxer/domain';

/** `GET`/`PATCH /api/settings`: every secret-shaped value removed, and which secrets are set. */
export interface SettingsView {
  settings: PublicSettings;
  secretsSet: { githubToken: boolean; githubWebhookSecret: boolean };
}

/** `GET /api/settings/credentials` (a list), `PUT`/`DELETE …/:name`: never the value. */
export interface CredentialView {
  name: CredentialName;
  /** The environment variable the agent's harness gets it as. */
  env: string;
  set: boolean;
}

/** schedule_create's answer. */
export interface ScheduleSummary {
  id: string;
  name: string;
  cron: string;
  timezone: string;
  /** ISO-8601, from the cron pattern; null when the scheduler cannot say (or it is disabled). */
  nextRunAt: string | null;
}

/** One row of schedule_list. */
export interface ScheduleListing extends ScheduleSummary {
  enabled: boolean;
  /** What a run does, as the domain records it (defaults filled in). */
  action: ScheduleAction;
  /** The occurrence the latest run was for, or null when it never ran. */
  lastRunAt: string | null;
}

/** `GET /api/schedules` (a list) and `PATCH /api/schedules/:id`: schedule_list's row and more. */
export interface ScheduleView extends ScheduleListing {
  /** Runs missed while Sessionboxer was down are skipped (false: the latest one fires once). */
  skipMissed: boolean;
  /** The latest runs, newest first (up to 20): when, how, and the session each started. */
  runs: ScheduleRunView[];
}

export interface ScheduleRunView {
  scheduledFor: string;
  ok: boolean;
  detail: string;
  sessionId: string | null;
}
