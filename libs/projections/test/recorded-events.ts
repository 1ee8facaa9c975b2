import { sessionStream, type Actor, type SessionEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';

/** Fabricates RecordedEvents for projection tests: positions in order, revisions per stream. */
export const PERSON: Actor = { kind: 'person', id: 'ada' };

export interface ByActor {
  actor: Actor;
  event: SessionEvent;
}

/** An event caused by someone other than the default person. */
export function by(actor: Actor, event: SessionEvent): ByActor {
  return { actor, event };
}

/** Records `events` at positions `firstPosition`, +1, … (the SQLite store starts at 1). */
export function recorded(
  events: readonly (SessionEvent | ByActor)[],
  firstPosition = 1,
): RecordedEvent[] {
  const revisions = new Map<string, number>();
  return events.map((item, i) => {
    const { actor, event } = 'actor' in item ? item : { actor: PERSON, event: item };
    const streamName = sessionStream(event.data.sessionId);
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
