import {
  assertNever,
  isSessionEvent,
  SESSION_EVENT_TYPES,
  type Actor,
  type SessionCreated,
} from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

export type MarkerKind =
  | 'session-created'
  | 'session-renamed'
  | 'session-stopped'
  | 'session-resumed'
  /** In the creating agent's transcript: it created (or forked) another session. */
  | 'child-session-created';

/** A small line in a session's transcript, at the point where the action happened. */
export interface TranscriptMarker {
  /** The event's id (with `:creator` for the marker in the creating session's transcript). */
  id: string;
  sessionId: string;
  /** Global position of the event: where the marker sits among the session's messages. */
  position: number;
  at: string;
  actor: Actor;
  kind: MarkerKind;
  text: string;
  /** The session a marker points to (the created child), or null. */
  link: { sessionId: string } | null;
}

function marker(
  event: RecordedEvent,
  sessionId: string,
  kind: MarkerKind,
  text: string,
  link: TranscriptMarker['link'] = null,
): DocumentChange<TranscriptMarker> {
  const { at, actor } = event.metadata;
  const id = kind === 'child-session-created' ? `${event.id}:creator` : event.id;
  const doc = { id, sessionId, position: event.position, at, actor, kind, text, link };
  return { id, partition: sessionId, order: event.position, doc };
}

/**
 * An agent that creates a session does it from its own session, so that transcript gets the
 * marker the spec asks for ("created Session …", linking to it) besides the new session's own.
 */
function created(event: RecordedEvent & SessionCreated): DocumentChange<TranscriptMarker>[] {
  const { sessionId, title, createdBy, forkedFrom } = event.data;
  const own = marker(event, sessionId, 'session-created', 'created the Session');
  if (createdBy === null) return [own];
  const forked = forkedFrom?.sessionId === createdBy.sessionId;
  const text = forked ? `forked the Session as “${title}”` : `created Session “${title}”`;
  const link = { sessionId };
  return [own, marker(event, createdBy.sessionId, 'child-session-created', text, link)];
}

function evolve(event: RecordedEvent): DocumentChange<TranscriptMarker>[] {
  if (!isSessionEvent(event)) return [];
  const { sessionId } = event.data;
  switch (event.type) {
    case 'SessionCreated':
      return created(event);
    case 'SessionTitleSet': {
      const text = `renamed the Session to “${event.data.title}”`;
      return [marker(event, sessionId, 'session-renamed', text)];
    }
    case 'SessionStopped': {
      const { reason } = event.data;
      const text = reason === null ? 'stopped the Session' : `stopped the Session (${reason})`;
      return [marker(event, sessionId, 'session-stopped', text)];
    }
    case 'SessionResumed':
      return [marker(event, sessionId, 'session-resumed', 'resumed the Session')];
    default:
      return assertNever(event);
  }
}

/** Markers are history: one per action, written once and never rewritten (a rename shows as
 *  a new marker, the old ones keep the title of their time). */
export const transcriptMarkersProjection: Projection<TranscriptMarker> = {
  name: 'transcript_markers',
  version: 1,
  handles: SESSION_EVENT_TYPES,
  apply: evolve,
};

export interface MarkerPage {
  markers: TranscriptMarker[];
  /** Pass as `after` for the next page; null when this page was the last. */
  next: number | null;
}

export const MARKER_PAGE_MAX = 500;

/** A transcript's markers. Read-only. */
export interface TranscriptMarkerQueries {
  /** A session's markers after `after` (a position, exclusive), oldest first; limit 1–500. */
  page(sessionId: string, options?: { after?: number; limit?: number }): MarkerPage;
}

export function transcriptMarkerQueries(reader: ReadModelReader): TranscriptMarkerQueries {
  return {
    page(sessionId, options = {}) {
      const limit = Math.min(Math.max(1, options.limit ?? 100), MARKER_PAGE_MAX);
      const docs = reader.list(transcriptMarkersProjection, {
        partition: sessionId,
        after: options.after,
        limit: limit + 1,
      });
      const markers = docs.slice(0, limit).map((d) => d.doc);
      const next = docs.length > limit ? markers[markers.length - 1].position : null;
      return { markers, next };
    },
  };
}
