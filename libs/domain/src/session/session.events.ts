import type { Actor, DomainEvent } from '../kernel';
import type {
  NarratedRecordingData,
  NotificationSource,
  RecordingData,
  SessionPane,
  SessionSpec,
  TerminalOpener,
} from './session.commands';

/**
 * Every event carries its session id and the command's `at`, so a read model can be built
 * from the event data alone.
 */
/**
 * `repos` and `branch` (the session's own branch in each of them, `sessionboxer/<short id>`,
 * null without repos) are missing from sessions created before repositories existed: read
 * them as [] and null.
 */
export type SessionCreated = DomainEvent<
  'SessionCreated',
  SessionSpec & { repos: string[]; branch: string | null; at: string }
>;

/** `previousTitle` lets a transcript or an audit show the rename without replaying the stream. */
export type SessionTitleSet = DomainEvent<
  'SessionTitleSet',
  { sessionId: string; title: string; previousTitle: string; at: string }
>;

/** `reason` is null when none was given (plain JSON: no `undefined` in stored events). */
export type SessionStopped = DomainEvent<
  'SessionStopped',
  { sessionId: string; reason: string | null; at: string }
>;

export type SessionResumed = DomainEvent<'SessionResumed', { sessionId: string; at: string }>;

export type SessionArchived = DomainEvent<'SessionArchived', { sessionId: string; at: string }>;

export type SessionUnarchived = DomainEvent<'SessionUnarchived', { sessionId: string; at: string }>;

/** The last event of a session's stream: read models drop it, its box is destroyed. */
export type SessionDeleted = DomainEvent<'SessionDeleted', { sessionId: string; at: string }>;

/** `ordinal` is the session's snapshot number, 1 for its first: "took Snapshot 3". */
export type SnapshotTaken = DomainEvent<
  'SnapshotTaken',
  {
    sessionId: string;
    snapshotId: string;
    ordinal: number;
    sizeBytes: number;
    conversationPosition: number | null;
    at: string;
  }
>;

/** The snapshot stays: a session can be reverted to the same snapshot again later. */
export type SessionReverted = DomainEvent<
  'SessionReverted',
  { sessionId: string; snapshotId: string; ordinal: number; at: string }
>;

/** The automatic snapshot at a turn's end; it takes no ordinal (Snapshot n are the explicit ones). */
export type TurnSnapshotTaken = DomainEvent<
  'TurnSnapshotTaken',
  {
    sessionId: string;
    snapshotId: string;
    turn: number;
    conversationPosition: number;
    sizeBytes: number;
    files: number;
    newBytes: number;
    at: string;
  }
>;

/** The workspace was put back as it was when `turn` ended. */
export type SessionRewound = DomainEvent<
  'SessionRewound',
  { sessionId: string; turn: number; snapshotId: string; at: string }
>;

export type NotificationSent = DomainEvent<
  'NotificationSent',
  {
    sessionId: string;
    notificationId: string;
    text: string;
    source: NotificationSource;
    at: string;
  }
>;

export type TerminalOpened = DomainEvent<
  'TerminalOpened',
  {
    sessionId: string;
    terminalId: string;
    command: string[] | null;
    openedBy: TerminalOpener;
    at: string;
  }
>;

export type TerminalExited = DomainEvent<
  'TerminalExited',
  { sessionId: string; terminalId: string; exitCode: number; at: string }
>;

/** A person typed into a Terminal: who and when, never the keystrokes. */
export type TerminalTypedInto = DomainEvent<
  'TerminalTypedInto',
  { sessionId: string; terminalId: string; by: Actor; at: string }
>;

/** Bytes `offset`…`offset + length - 1` of a Terminal's output, `data` their base64. */
export type TerminalOutputRecorded = DomainEvent<
  'TerminalOutputRecorded',
  {
    sessionId: string;
    terminalId: string;
    offset: number;
    length: number;
    data: string;
    at: string;
  }
>;

export type PaneRequested = DomainEvent<
  'PaneRequested',
  {
    sessionId: string;
    pane: SessionPane;
    shown: boolean;
    terminalId: string | null;
    command: string | null;
    at: string;
  }
>;

export type RecordingFinished = DomainEvent<'RecordingFinished', RecordingData & { at: string }>;

export type RecordingNarrated = DomainEvent<
  'RecordingNarrated',
  NarratedRecordingData & { narration: 'added'; at: string }
>;

/** The session's life: created, renamed, stopped, resumed, archived, deleted. */
export type SessionLifecycleEvent =
  | SessionCreated
  | SessionTitleSet
  | SessionStopped
  | SessionResumed
  | SessionArchived
  | SessionUnarchived
  | SessionDeleted;

export type SessionEvent =
  | SessionLifecycleEvent
  | SnapshotTaken
  | SessionReverted
  | TurnSnapshotTaken
  | SessionRewound
  | NotificationSent
  | TerminalOpened
  | TerminalExited
  | TerminalOutputRecorded
  | TerminalTypedInto
  | PaneRequested
  | RecordingFinished
  | RecordingNarrated;

export const SESSION_LIFECYCLE_EVENT_TYPES: readonly SessionLifecycleEvent['type'][] = [
  'SessionCreated',
  'SessionTitleSet',
  'SessionStopped',
  'SessionResumed',
  'SessionArchived',
  'SessionUnarchived',
  'SessionDeleted',
];

export const SESSION_EVENT_TYPES: readonly SessionEvent['type'][] = [
  ...SESSION_LIFECYCLE_EVENT_TYPES,
  'SnapshotTaken',
  'SessionReverted',
  'TurnSnapshotTaken',
  'SessionRewound',
  'NotificationSent',
  'TerminalOpened',
  'TerminalExited',
  'TerminalOutputRecorded',
  'TerminalTypedInto',
  'PaneRequested',
  'RecordingFinished',
  'RecordingNarrated',
];

/** Narrows an event read from a store (type is only a string there) to a session event. */
export function isSessionEvent(event: { type: string; data: unknown }): event is SessionEvent {
  return (SESSION_EVENT_TYPES as readonly string[]).includes(event.type);
}
