import {
  inboxStream,
  type InboxEvent,
  isInboxEvent,
  boxStream,
  conversationStream,
  isBoxEvent,
  isConversationEvent,
  isCurrentRunEvent,
  isPrEvent,
  isRepositoryEvent,
  isSettingsEvent,
  isScheduleEvent,
  isVerificationEvent,
  prStream,
  repositoriesStream,
  scheduleStream,
  sessionStream,
  sessionVerificationsStream,
  settingsStream,
  verificationStream,
  type Actor,
  type BoxEvent,
  type ConversationEvent,
  type CurrentVerificationRunSet,
  type PrEvent,
  type RepositoryEvent,
  type ScheduleEvent,
  type SessionEvent,
  type SettingsEvent,
  type VerificationEvent,
} from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';

/** Fabricates RecordedEvents for projection tests: positions in order, revisions per stream. */
export const PERSON: Actor = { kind: 'person', id: 'ada' };

/** Any event of the domain's aggregates. */
export type AnyDomainEvent =
  | SessionEvent
  | InboxEvent
  | BoxEvent
  | PrEvent
  | SettingsEvent
  | ConversationEvent
  | VerificationEvent
  | CurrentVerificationRunSet
  | ScheduleEvent
  | RepositoryEvent;

export interface ByActor {
  actor: Actor;
  event: AnyDomainEvent;
}

/** An event caused by someone other than the default person. */
export function by(actor: Actor, event: AnyDomainEvent): ByActor {
  return { actor, event };
}

/** The stream its aggregate appends it to. */
function streamOf(event: AnyDomainEvent): string {
  if (isBoxEvent(event)) return boxStream(event.data.sessionId);
  if (isPrEvent(event)) return prStream(event.data);
  if (isSettingsEvent(event)) return settingsStream();
  if (isConversationEvent(event)) return conversationStream(event.data.conversationId);
  if (isVerificationEvent(event)) return verificationStream(event.data.runId);
  if (isCurrentRunEvent(event)) return sessionVerificationsStream(event.data.sessionId);
  if (isScheduleEvent(event)) return scheduleStream(event.data.scheduleId);
  if (isRepositoryEvent(event)) return repositoriesStream();
  if (isInboxEvent(event)) return inboxStream(event.data.userId);
  return sessionStream(event.data.sessionId);
}

/** Records `events` at positions `firstPosition`, +1, … (the SQLite store starts at 1). */
export function recorded(
  events: readonly (AnyDomainEvent | ByActor)[],
  firstPosition = 1,
): RecordedEvent[] {
  const revisions = new Map<string, number>();
  return events.map((item, i) => {
    const { actor, event } = 'actor' in item ? item : { actor: PERSON, event: item };
    const streamName = streamOf(event);
    const revision = (revisions.get(streamName) ?? -1) + 1;
    revisions.set(streamName, revision);
    const position = firstPosition + i;
    const id = `event-${position}`;
    const { at } = event.data;
    const metadata = {
      commandId: `cmd-${position}`,
      correlationId: id,
      causationId: id,
      actor,
      at,
    };
    return { ...event, id, metadata, streamName, revision, position, recordedAt: at };
  });
}
