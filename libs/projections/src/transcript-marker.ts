import type { MarkerKind, MarkerLink, TranscriptMarker } from '@sessionboxer/contracts';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange } from './projection';

// The marker document, shared by the markers of a session's own events and of its
// conversations; its shape is the wire's (libs/contracts).
export type { MarkerKind, MarkerLink, TranscriptMarker };

export function marker(
  event: RecordedEvent,
  sessionId: string,
  kind: MarkerKind,
  text: string,
  link: MarkerLink | null = null,
): DocumentChange<TranscriptMarker> {
  const { at, actor } = event.metadata;
  const id = kind === 'child-session-created' ? `${event.id}:creator` : event.id;
  const doc = { id, sessionId, position: event.position, at, actor, kind, text, link };
  return { id, partition: sessionId, order: event.position, doc };
}

/** True for a marker, false for the other documents kept in the markers' table. */
export function isMarker(doc: object): doc is TranscriptMarker {
  return 'kind' in doc;
}
