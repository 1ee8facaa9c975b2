import type { Actor } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange } from './projection';

// The marker document, shared by the markers of a session's own events and of its conversations.

export type MarkerKind =
  | 'session-created'
  | 'session-renamed'
  | 'session-stopped'
  | 'session-resumed'
  /** In the creating agent's transcript: it created (or forked) another session. */
  | 'child-session-created'
  | 'snapshot-taken'
  | 'session-reverted'
  | 'pr-attached'
  | 'notified'
  | 'pane-opened'
  | 'terminal-opened'
  | 'box-failed'
  | 'recording-finished'
  | 'recording-narrated'
  /** A prompt that waits in the queue of one of the session's conversations. */
  | 'prompt-queued'
  /** An Auto QA run opened, and how it closed. */
  | 'verification-opened'
  | 'verification-finished'
  | 'verification-skipped'
  /** An agent asked a person (an approval card), and how it was settled. */
  | 'approval-requested'
  | 'approval-answered'
  /** In the sender's transcript: its agent messaged another session's. */
  | 'message-sent'
  /** In the creating agent's transcript: it created a scheduled task (schedule_create). */
  | 'schedule-created';

/**
 * What a marker points to: a session, a PR (its url), a snapshot, a Terminal, a recording or
 * an Auto QA run of its session, an approval card, a scheduled task.
 */
export type MarkerLink =
  | { sessionId: string }
  | { url: string }
  | { snapshotId: string }
  | { terminalId: string }
  | { recording: string }
  | { verificationRunId: string }
  | { approvalId: string }
  | { scheduleId: string };

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
  /** What the marker names, or null. */
  link: MarkerLink | null;
}

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
