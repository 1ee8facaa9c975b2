import type { ScheduleAction } from '@sessionboxer/domain';

/**
 * What the scheduled-task tools can do for ONE calling session. Shapes follow the spec's
 * "Scheduled tasks" (schedule_create, schedule_list).
 */

/** An action as schedule_create takes it (defaults filled in by its schema). */
export type ScheduleActionArgs =
  | { type: 'prompt'; sessionId?: string; text: string }
  | {
      type: 'new_session';
      title?: string;
      provider?: string;
      repos: string[];
      prompt: string;
      stopAfter: boolean;
    };

export interface ScheduleCreateArgs {
  cron: string;
  timezone: string;
  name?: string;
  action: ScheduleActionArgs;
}

/** What schedule_create answers. */
export interface ScheduleSummary {
  id: string;
  name: string;
  cron: string;
  timezone: string;
  /** ISO-8601; null when the scheduler cannot say. */
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
