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

// What schedule_create and schedule_list answer, defined once in the contracts.
export type { ScheduleListing, ScheduleSummary } from '@sessionboxer/contracts';
