import { isScheduleEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange } from './projection';
import { marker, type TranscriptMarker } from './transcript-marker';

/**
 * "scheduled …" in the transcript of the session whose agent created the schedule
 * (schedule_create). A person's schedule (the Scheduled tasks page) belongs to no session, and
 * the runs show in the prompted session's conversation as prompts from the schedule.
 */
export function scheduleMarkers(event: RecordedEvent): DocumentChange<TranscriptMarker>[] {
  if (!isScheduleEvent(event) || event.type !== 'ScheduleCreated') return [];
  const { scheduleId, name, cron, timezone, action, createdBy } = event.data;
  if (createdBy === null) return [];
  const what = action.type === 'prompt' ? 'a prompt' : 'a new Session';
  const text = `scheduled “${name}” (${cron}, ${timezone}): ${what} each time`;
  return [marker(event, createdBy.sessionId, 'schedule-created', text, { scheduleId })];
}
