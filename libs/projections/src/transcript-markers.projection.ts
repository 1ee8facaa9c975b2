import {
  assertNever,
  isBoxEvent,
  isPrEvent,
  isSessionEvent,
  SESSION_LIFECYCLE_EVENT_TYPES,
  type Actor,
  type SessionCreated,
  type PaneRequested,
  type SessionEvent,
  type SessionPane,
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
  | 'child-session-created'
  | 'snapshot-taken'
  | 'session-reverted'
  | 'pr-attached'
  | 'notified'
  | 'pane-opened'
  | 'terminal-opened'
  | 'box-failed'
  | 'recording-finished'
  | 'recording-narrated';

/** What a marker points to: a session, a PR (its url), a snapshot or a Terminal of its session. */
export type MarkerLink =
  | { sessionId: string }
  | { url: string }
  | { snapshotId: string }
  | { terminalId: string }
  | { recording: string };

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

function marker(
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

/** The panes as the session page names them. */
export const PANE_LABELS: Record<SessionPane, string> = {
  transcript: 'Transcript',
  prs: 'PRs',
  terminal: 'Terminal',
  snapshots: 'Snapshots',
  autoqa: 'Auto QA',
  desktop: 'Desktop',
  files: 'Files',
};

/**
 * "opened a Terminal running …" when a command was started (it runs whether or not a browser
 * showed it), else "opened the … pane" when a browser showed it. A pane nobody saw opened
 * nothing, so it gets no marker.
 */
export function paneMarker(
  event: RecordedEvent & PaneRequested,
): DocumentChange<TranscriptMarker>[] {
  const { sessionId, pane, shown, terminalId, command } = event.data;
  const link = terminalId === null ? null : { terminalId };
  if (command !== null) {
    return [
      marker(event, sessionId, 'terminal-opened', `opened a Terminal running ${command}`, link),
    ];
  }
  if (!shown) return [];
  return [marker(event, sessionId, 'pane-opened', `opened the ${PANE_LABELS[pane]} pane`, link)];
}

function sessionMarkers(event: RecordedEvent & SessionEvent): DocumentChange<TranscriptMarker>[] {
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
    case 'SnapshotTaken': {
      const { ordinal, snapshotId } = event.data;
      const text = `took Snapshot ${ordinal}`;
      return [marker(event, sessionId, 'snapshot-taken', text, { snapshotId })];
    }
    case 'SessionReverted': {
      const { ordinal, snapshotId } = event.data;
      const text = `reverted the Session to Snapshot ${ordinal}`;
      return [marker(event, sessionId, 'session-reverted', text, { snapshotId })];
    }
    case 'NotificationSent':
      // The agent's `notify` is an action of the agent; PR and system notifications are not.
      if (event.data.source !== 'agent') return [];
      return [marker(event, sessionId, 'notified', `notified you: ${event.data.text}`)];
    case 'PaneRequested':
      return paneMarker(event);
    case 'RecordingFinished': {
      const { path, seconds, captions } = event.data;
      const steps = captions.length === 1 ? '1 step' : `${captions.length} steps`;
      const text = `recorded a video (${Math.round(seconds)} s, ${steps}): ${path}`;
      return [marker(event, sessionId, 'recording-finished', text, { recording: path })];
    }
    case 'RecordingNarrated': {
      const { path } = event.data;
      const text = `added narration to the video: ${path}`;
      return [marker(event, sessionId, 'recording-narrated', text, { recording: path })];
    }
    // A Terminal the agent opens shows through its PaneRequested; a person's needs no marker.
    case 'TerminalOpened':
    case 'TerminalExited':
      return [];
    default:
      return assertNever(event);
  }
}

function evolve(event: RecordedEvent): DocumentChange<TranscriptMarker>[] {
  if (isSessionEvent(event)) return sessionMarkers(event);
  if (isPrEvent(event) && event.type === 'PrAttached') {
    const { sessionId, owner, repo, number, url } = event.data;
    const text = `attached PR #${number} (${owner}/${repo})`;
    return [marker(event, sessionId, 'pr-attached', text, { url })];
  }
  // Of the box's life only a failure is worth a line: the rest follows the session's own.
  if (isBoxEvent(event) && event.type === 'BoxFailed') {
    const { sessionId, reason } = event.data;
    return [marker(event, sessionId, 'box-failed', `the box failed: ${reason}`)];
  }
  return [];
}

/** Markers are history: one per action, written once and never rewritten (a rename shows as
 *  a new marker, the old ones keep the title of their time). */
export const transcriptMarkersProjection: Projection<TranscriptMarker> = {
  name: 'transcript_markers',
  // 2: snapshot, revert, PR, notification, pane and box-failure markers.
  version: 4,
  handles: [
    ...SESSION_LIFECYCLE_EVENT_TYPES,
    'SnapshotTaken',
    'SessionReverted',
    'NotificationSent',
    'PaneRequested',
    'RecordingFinished',
    'RecordingNarrated',
    'PrAttached',
    'BoxFailed',
  ],
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
