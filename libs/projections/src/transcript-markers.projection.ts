import {
  assertNever,
  isBoxEvent,
  isPrEvent,
  isSessionEvent,
  isVerificationEvent,
  SESSION_LIFECYCLE_EVENT_TYPES,
  type SessionCreated,
  type PaneRequested,
  type SessionEvent,
  type SessionPane,
  isApprovalEvent,
  isScheduleEvent,
} from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { conversationMarkers, type MarkerStoredDoc } from './conversation-markers';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';
import { isMarker, marker, type TranscriptMarker } from './transcript-marker';
import { approvalMarkers } from './approval-markers';
import { egressMarkers } from './egress-markers';
import { scheduleMarkers } from './schedule-markers';
import { SSH_TERMINAL_MARKER_EVENTS, sshTerminalMarkers } from './ssh-terminal-markers';
import { titleIndex } from './message-markers';
import { verificationMarkers } from './verification-markers';

export * from './transcript-marker';
export { VERIFICATION_QUOTE_MAX } from './verification-markers';
export {
  QUEUED_PROMPT_QUOTE_MAX,
  type MarkerConversationIndex,
  type MarkerStoredDoc,
} from './conversation-markers';

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
    // Not in `handles`: turn snapshots (a marker after every turn) and rewinds. Archiving is
    // the sidebar's; a deleted session's transcript is no longer listed.
    case 'TerminalOpened':
    case 'TerminalExited':
    case 'TurnSnapshotTaken':
    case 'TerminalOutputRecorded':
    case 'TerminalTypedInto':
    case 'SessionRewound':
    case 'SessionArchived':
    case 'SessionUnarchived':
    case 'SessionDeleted':
      return [];
    default:
      return assertNever(event);
  }
}

function evolve(
  event: RecordedEvent,
  get: (id: string) => MarkerStoredDoc | null,
): DocumentChange<MarkerStoredDoc>[] {
  if (isSessionEvent(event)) return [...sessionMarkers(event), ...titleIndex(event)];
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
  if (isVerificationEvent(event)) return verificationMarkers(event);
  if (isApprovalEvent(event)) return approvalMarkers(event);
  if (isScheduleEvent(event)) return scheduleMarkers(event);
  if (event.type === 'EgressRefused') return egressMarkers(event);
  if ((SSH_TERMINAL_MARKER_EVENTS as readonly string[]).includes(event.type)) {
    return sshTerminalMarkers(event, get);
  }
  return conversationMarkers(event, get);
}

/** Markers are history: one per action, written once and never rewritten (a rename shows as
 *  a new marker, the old ones keep the title of their time). */
export const transcriptMarkersProjection: Projection<MarkerStoredDoc> = {
  name: 'transcript_markers',
  // 2: snapshot, revert, PR, notification, pane and box-failure markers. 5: queued prompts
  // (and the conversation → session index they need). 6: Auto QA runs opened and closed.
  // 7: approval cards, and "sent a message to …" in the sender's transcript.
  // 8: "scheduled …" in the transcript of the agent that created a schedule.
  // 9: "blocked a connection to …" for each connection the egress proxy refused.
  // 10: SSH terminals a session's agent asked for (the terminal MCP from the registry).
  version: 10,
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
    'ConversationStarted',
    'PromptQueued',
    'TurnStarted',
    'VerificationOpened',
    'VerificationSkipped',
    'VerificationFinished',
    'ApprovalRequested',
    'ApprovalAnswered',
    'ApprovalExpired',
    'ScheduleCreated',
    'EgressRefused',
    ...SSH_TERMINAL_MARKER_EVENTS,
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

/**
 * A session's markers after a position (exclusive), oldest first; every one when `limit` is
 * left out. What the session transcript merges with the conversations' events.
 */
export function listMarkers(
  reader: ReadModelReader,
  sessionId: string,
  options: { after?: number; limit?: number } = {},
): TranscriptMarker[] {
  const docs = reader.list(transcriptMarkersProjection, { partition: sessionId, ...options });
  return docs.map((d) => d.doc).filter(isMarker);
}

export function transcriptMarkerQueries(reader: ReadModelReader): TranscriptMarkerQueries {
  return {
    page(sessionId, options = {}) {
      const limit = Math.min(Math.max(1, options.limit ?? 100), MARKER_PAGE_MAX);
      const docs = listMarkers(reader, sessionId, { after: options.after, limit: limit + 1 });
      const markers = docs.slice(0, limit);
      const next = docs.length > limit ? markers[markers.length - 1].position : null;
      return { markers, next };
    },
  };
}
