import {
  assertNever,
  BOX_EVENT_TYPES,
  boxDecider,
  initialBoxState,
  isBoxEvent,
  isSessionEvent,
  type BoxEvent,
  type BoxState,
  type SessionEvent,
  type SessionPane,
  type TerminalOpener,
} from '@sessionboxer/domain';
import type { BoxDetails } from '@sessionboxer/contracts';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

// The session's box as whoami and the UI show it: the wire's (libs/contracts).
export type { BoxDetails };

/** A Terminal of the session: `{ id, createdAt, exitCode }` is terminal_list's TerminalSummary. */
export interface TerminalDetails {
  id: string;
  createdAt: string;
  /** null while the shell still runs. */
  exitCode: number | null;
  command: string[] | null;
  openedBy: TerminalOpener;
}

/** The pane the session last asked a browser to show (whether or not one was there to). */
export interface PaneDetails {
  pane: SessionPane;
  shown: boolean;
  terminalId: string | null;
  command: string | null;
  at: string;
}

/** What the sidebar row does not carry: the box, snapshots, Terminals, panes, notifications. */
export interface SessionDetails {
  id: string;
  box: BoxDetails | null;
  snapshotCount: number;
  lastSnapshot: { id: string; ordinal: number; sizeBytes: number; createdAt: string } | null;
  /** Oldest first, exited ones too. */
  terminals: TerminalDetails[];
  lastPane: PaneDetails | null;
  notificationCount: number;
  /** The last revert, or null if the session was never reverted. */
  revertedTo: { snapshotId: string; ordinal: number; at: string } | null;
}

type ActivityEvent = Exclude<
  SessionEvent,
  {
    type:
      | 'SessionTitleSet'
      | 'SessionStopped'
      | 'SessionResumed'
      | 'SessionArchived'
      | 'SessionUnarchived'
      | 'SessionDeleted';
  }
>;

const HANDLED: readonly string[] = [
  'SessionCreated',
  'SnapshotTaken',
  'SessionReverted',
  'NotificationSent',
  'TerminalOpened',
  'TerminalExited',
  'PaneRequested',
  'SessionDeleted',
  ...BOX_EVENT_TYPES,
];

const PARTITION = 'sessions';

function empty(id: string): SessionDetails {
  const none = { box: null, lastSnapshot: null, lastPane: null, revertedTo: null };
  return { id, ...none, snapshotCount: 0, terminals: [], notificationCount: 0 };
}

/**
 * Upserts: box events are in their own stream and might be read before the session's
 * creation, so whichever event comes first creates the document.
 */
function update(
  event: RecordedEvent,
  get: (id: string) => SessionDetails | null,
  id: string,
  change: (doc: SessionDetails) => SessionDetails,
): DocumentChange<SessionDetails>[] {
  const existing = get(id);
  if (existing !== null) return [{ id, doc: change(existing) }];
  return [{ id, partition: PARTITION, order: event.position, doc: change(empty(id)) }];
}

/** Folds with the Box decider's own `evolve`, so the read model's status is the aggregate's. */
function withBox(doc: SessionDetails, event: BoxEvent): SessionDetails {
  const current: BoxState = doc.box === null ? initialBoxState : { ...doc.box, sessionId: doc.id };
  const next = boxDecider.evolve(current, event);
  if (next.status === 'absent') return doc;
  const { status, workspacePath, mcpJsonPath, isolation, failure } = next;
  const box = { status, workspacePath, mcpJsonPath, isolation, failure, since: event.data.at };
  return { ...doc, box };
}

function withActivity(doc: SessionDetails, event: ActivityEvent): SessionDetails {
  switch (event.type) {
    case 'SessionCreated':
      return doc;
    case 'SnapshotTaken': {
      const { snapshotId: id, ordinal, sizeBytes, at: createdAt } = event.data;
      const snapshotCount = Math.max(doc.snapshotCount, ordinal);
      return { ...doc, snapshotCount, lastSnapshot: { id, ordinal, sizeBytes, createdAt } };
    }
    case 'SessionReverted': {
      const { snapshotId, ordinal, at } = event.data;
      return { ...doc, revertedTo: { snapshotId, ordinal, at } };
    }
    case 'NotificationSent':
      return { ...doc, notificationCount: doc.notificationCount + 1 };
    case 'TerminalOpened': {
      const { terminalId: id, at: createdAt, command, openedBy } = event.data;
      if (doc.terminals.some((t) => t.id === id)) return doc;
      const terminal = { id, createdAt, exitCode: null, command, openedBy };
      return { ...doc, terminals: [...doc.terminals, terminal] };
    }
    case 'TerminalExited': {
      const { terminalId, exitCode } = event.data;
      const terminals = doc.terminals.map((t) => (t.id === terminalId ? { ...t, exitCode } : t));
      return { ...doc, terminals };
    }
    case 'PaneRequested': {
      const { pane, shown, terminalId, command, at } = event.data;
      return { ...doc, lastPane: { pane, shown, terminalId, command, at } };
    }
    case 'RecordingFinished':
    case 'RecordingNarrated':
    case 'TurnSnapshotTaken':
    case 'TerminalOutputRecorded':
    case 'TerminalTypedInto':
    case 'SessionRewound':
      return doc;
    default:
      return assertNever(event);
  }
}

function apply(
  event: RecordedEvent,
  get: (id: string) => SessionDetails | null,
): DocumentChange<SessionDetails>[] {
  if (isBoxEvent(event)) {
    // A deleted session's box is destroyed after its deletion: that must not bring it back.
    if (event.type === 'BoxDestroyed' && get(event.data.sessionId) === null) return [];
    return update(event, get, event.data.sessionId, (doc) => withBox(doc, event));
  }
  if (!isSessionEvent(event)) return [];
  switch (event.type) {
    // Not in `handles`: the sidebar tree keeps the title and the status, and recordings and
    // turn snapshots have read models of their own.
    case 'SessionTitleSet':
    case 'SessionStopped':
    case 'SessionResumed':
    case 'RecordingFinished':
    case 'RecordingNarrated':
    case 'TurnSnapshotTaken':
    case 'TerminalOutputRecorded':
    case 'TerminalTypedInto':
    case 'SessionRewound':
    case 'SessionArchived':
    case 'SessionUnarchived':
      return [];
    case 'SessionDeleted':
      return get(event.data.sessionId) === null ? [] : [{ id: event.data.sessionId, doc: null }];
    case 'SessionCreated':
    case 'SnapshotTaken':
    case 'SessionReverted':
    case 'NotificationSent':
    case 'TerminalOpened':
    case 'TerminalExited':
    case 'PaneRequested':
      return update(event, get, event.data.sessionId, (doc) => withActivity(doc, event));
    default:
      return assertNever(event);
  }
}

export const sessionDetailsProjection: Projection<SessionDetails> = {
  name: 'session_details',
  // 2: a deleted session's details are dropped.
  version: 2,
  handles: HANDLED,
  apply,
};

/** The session details' query. Read-only. */
export interface SessionDetailsQueries {
  /** null for a session the read model has not seen. */
  get(sessionId: string): SessionDetails | null;
  /** Every session's details, oldest first (for the metrics' counts). */
  all(): SessionDetails[];
}

export function sessionDetailsQueries(reader: ReadModelReader): SessionDetailsQueries {
  return {
    get: (sessionId) => reader.get(sessionDetailsProjection, sessionId),
    all: () => reader.list(sessionDetailsProjection, { partition: PARTITION }).map((d) => d.doc),
  };
}
