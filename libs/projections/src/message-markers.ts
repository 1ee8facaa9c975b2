import { isConversationEvent, isSessionEvent, type Actor } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange } from './projection';
import { marker, type TranscriptMarker } from './transcript-marker';

/** A session's title as of now, kept in the markers' table for "sent a message to …". */
export interface MarkerTitleIndex {
  titleOf: string;
  title: string;
}

/** Messages from another session's agent that were queued, so their turn adds no marker. */
export interface MarkerAnnounced {
  announced: string;
}

const titleKey = (sessionId: string) => docId('title', sessionId);
const announcedKey = (promptId: string) => docId('announced', promptId);
const INDEX_PARTITION = '';

type Doc = TranscriptMarker | MarkerTitleIndex | MarkerAnnounced | object;

/** Keeps each session's current title beside the markers. */
export function titleIndex(event: RecordedEvent): DocumentChange<MarkerTitleIndex>[] {
  if (!isSessionEvent(event)) return [];
  if (event.type !== 'SessionCreated' && event.type !== 'SessionTitleSet') return [];
  const { sessionId, title } = event.data;
  return [
    {
      id: titleKey(sessionId),
      partition: INDEX_PARTITION,
      order: event.position,
      doc: { titleOf: sessionId, title },
    },
  ];
}

function otherAgent(from: Actor, ownerSessionId: string): string | null {
  return from.kind === 'agent' && from.sessionId !== ownerSessionId ? from.sessionId : null;
}

/**
 * "sent a message to “…”" in the SENDER's transcript, where its message reached the other
 * session: when it was queued there, or when it started a turn at once (a queued message's
 * later turn adds nothing).
 */
export function messageMarkers(
  event: RecordedEvent,
  ownerSessionId: string | null,
  get: (id: string) => Doc | null,
): DocumentChange<Doc>[] {
  if (!isConversationEvent(event) || ownerSessionId === null) return [];
  if (event.type !== 'PromptQueued' && event.type !== 'TurnStarted') return [];
  const sender = otherAgent(event.data.from, ownerSessionId);
  if (sender === null) return [];
  const key = announcedKey(event.data.promptId);
  if (event.type === 'TurnStarted' && get(key) !== null) return [{ id: key, doc: null }];
  const title =
    (get(titleKey(ownerSessionId)) as MarkerTitleIndex | null)?.title ?? 'another session';
  const sent = marker(event, sender, 'message-sent', `sent a message to “${title}”`, {
    sessionId: ownerSessionId,
  });
  const id = `${event.id}:sender`;
  const changes: DocumentChange<Doc>[] = [
    { ...sent, id, doc: { ...(sent.doc as TranscriptMarker), id } },
  ];
  if (event.type === 'PromptQueued')
    changes.push({
      id: key,
      partition: INDEX_PARTITION,
      order: event.position,
      doc: { announced: event.data.promptId },
    });
  return changes;
}
