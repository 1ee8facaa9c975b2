import { isConversationEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange } from './projection';
import { cut, oneLine } from './text';
import { messageMarkers, type MarkerAnnounced, type MarkerTitleIndex } from './message-markers';
import type { MarkerSshTerminalIndex } from './ssh-terminal-markers';
import { marker, type TranscriptMarker } from './transcript-marker';

/**
 * Which session owns a conversation. Conversation events name no session and `apply` reads only
 * its own table, so the markers' table keeps this beside the markers, written at the start.
 */
export interface MarkerConversationIndex {
  conversationId: string;
  sessionId: string;
}

export type MarkerStoredDoc =
  | TranscriptMarker
  | MarkerConversationIndex
  | MarkerTitleIndex
  | MarkerAnnounced
  | MarkerSshTerminalIndex;

// No session id is empty (the domain's exactId), so no transcript page ever lists the index.
const INDEX_PARTITION = '';
// Marker ids are event ids (UUIDs, maybe with `:creator`): none holds the `/` of this one.
const indexKey = (conversationId: string) => docId('conversation', conversationId);

/** How much of a queued prompt its marker quotes. */
export const QUEUED_PROMPT_QUOTE_MAX = 80;

/**
 * The markers of a conversation's events in its owner session's transcript: only a prompt
 * that joins the queue gets one (a prompt that starts a turn shows as the turn itself).
 * A sandbox's conversations belong to no transcript.
 */
export function conversationMarkers(
  event: RecordedEvent,
  get: (id: string) => MarkerStoredDoc | null,
): DocumentChange<MarkerStoredDoc>[] {
  if (!isConversationEvent(event)) return [];
  if (event.type === 'ConversationStarted') {
    const { conversationId, owner } = event.data;
    if (owner.kind !== 'session') return [];
    const doc = { conversationId, sessionId: owner.sessionId };
    const id = indexKey(conversationId);
    return [{ id, partition: INDEX_PARTITION, order: event.position, doc }];
  }
  if (event.type !== 'PromptQueued' && event.type !== 'TurnStarted') return [];
  const index = get(indexKey(event.data.conversationId));
  if (index === null || !('conversationId' in index)) return [];
  const sent = messageMarkers(event, index.sessionId, get) as DocumentChange<MarkerStoredDoc>[];
  if (event.type === 'TurnStarted') return sent;
  const quote = cut(oneLine(event.data.text), QUEUED_PROMPT_QUOTE_MAX);
  return [
    marker(event, index.sessionId, 'prompt-queued', `queued a message (“${quote}”)`),
    ...sent,
  ];
}
