import type { Command } from '../kernel';
import type { SessionEnvironment } from '../limits';

/** Another session, by id. */
export interface SessionRef {
  sessionId: string;
}

/** The snapshot of another session that a new session starts from. */
export interface ForkOrigin {
  sessionId: string;
  snapshotId: string;
}

/** What a session is created with, as asked (CreateSession) and as recorded (SessionCreated). */
export interface SessionSpec {
  sessionId: string;
  title: string;
  provider: string;
  model: string;
  environment: SessionEnvironment;
  /** The agent session that created it; null when a person did. */
  createdBy: SessionRef | null;
  forkedFrom: ForkOrigin | null;
  /** Names of Global settings' repositories, cloned into /workspace/<name>; default []. */
  repos?: string[];
}

export type CreateSession = Command<'CreateSession', SessionSpec>;

export type SetSessionTitle = Command<'SetSessionTitle', { sessionId: string; title: string }>;

export type StopSession = Command<'StopSession', { sessionId: string; reason?: string }>;

export type ResumeSession = Command<'ResumeSession', { sessionId: string }>;

/** Hides the session from the sidebar's default view; it keeps working as before. */
export type ArchiveSession = Command<'ArchiveSession', { sessionId: string }>;

export type UnarchiveSession = Command<'UnarchiveSession', { sessionId: string }>;

/**
 * Removes the session from every list and destroys its box. Refused while it runs (stop it
 * first). The history stays: "deleted" is an event, so audits still verify the stream.
 */
export type DeleteSession = Command<'DeleteSession', { sessionId: string }>;

/**
 * Records a snapshot the box driver has just written (the id is the driver's). Allowed while
 * running or stopped; Windows and macOS sessions have none (their VM disk is outside the box).
 */
export type TakeSnapshot = Command<
  'TakeSnapshot',
  {
    sessionId: string;
    snapshotId: string;
    sizeBytes: number;
    /** Where the conversation stood, so a revert or fork resumes it there; null: unknown. */
    conversationPosition: number | null;
  }
>;

export type RevertToSnapshot = Command<
  'RevertToSnapshot',
  { sessionId: string; snapshotId: string }
>;

/**
 * Records the snapshot taken automatically when a turn ended (content-addressed files: a
 * manifest per snapshot, blobs shared). One per turn: a second for the same turn records
 * nothing. `conversationPosition` is the global position of the turn's end.
 */
export type TakeTurnSnapshot = Command<
  'TakeTurnSnapshot',
  {
    sessionId: string;
    snapshotId: string;
    turn: number;
    conversationPosition: number;
    sizeBytes: number;
    files: number;
    /** Bytes this snapshot added to the blob store (the files no earlier snapshot had). */
    newBytes: number;
  }
>;

/** Rewind: puts the workspace back as it was when `turn` ended (its turn snapshot). */
export type RewindToTurn = Command<'RewindToTurn', { sessionId: string; turn: number }>;

/** Who a notification is from: the agent's `notify` tool, the PR watcher, or Sessionboxer. */
export type NotificationSource = 'agent' | 'pr' | 'system';

export const NOTIFICATION_SOURCES: readonly NotificationSource[] = ['agent', 'pr', 'system'];

export type Notify = Command<
  'Notify',
  { sessionId: string; notificationId: string; text: string; source: NotificationSource }
>;

/** A person opens Terminals in the pane; the agent through `ui_open`. */
export type TerminalOpener = 'agent' | 'person';

export const TERMINAL_OPENERS: readonly TerminalOpener[] = ['agent', 'person'];

/** Records a Terminal the box has opened; `command` is its argv, null for a plain shell. */
export type RecordTerminalOpened = Command<
  'RecordTerminalOpened',
  { sessionId: string; terminalId: string; command: string[] | null; openedBy: TerminalOpener }
>;

/**
 * The box says a Terminal opened. It records nothing (the Terminal was recorded when the
 * control plane asked the box to open it); it is refused for any Terminal nobody asked for.
 */
export type ReportTerminalOpened = Command<
  'ReportTerminalOpened',
  { sessionId: string; terminalId: string }
>;

export type RecordTerminalExited = Command<
  'RecordTerminalExited',
  { sessionId: string; terminalId: string; exitCode: number }
>;

/**
 * A batch of a Terminal's output as the box read it from the PTY: `data` is base64 of the
 * bytes from `offset` (bytes of the Terminal's whole output before them) on, so a Terminal
 * can be replayed and exported (asciicast) from the history.
 */
export type RecordTerminalOutput = Command<
  'RecordTerminalOutput',
  { sessionId: string; terminalId: string; offset: number; data: string }
>;

/**
 * A person typed into a Terminal (through the web UI's live pane). Who and when only: the
 * keystrokes are never recorded (a password typed at a prompt is in them), as the SSH
 * terminals record none of their input either. The person is the command's actor.
 */
export type RecordTerminalTyped = Command<
  'RecordTerminalTyped',
  { sessionId: string; terminalId: string }
>;

/** The panes of a session's page that `ui_open` can ask a browser to show. */
export type SessionPane =
  'transcript' | 'prs' | 'terminal' | 'snapshots' | 'autoqa' | 'desktop' | 'files';

export const SESSION_PANES: readonly SessionPane[] = [
  'transcript',
  'prs',
  'terminal',
  'snapshots',
  'autoqa',
  'desktop',
  'files',
];

/**
 * A pane was asked for. `shown`: whether a browser had the session open to show it. With
 * `command`, a Terminal (`terminalId`, recorded opened first) was started to run it.
 */
export type RequestPane = Command<
  'RequestPane',
  {
    sessionId: string;
    pane: SessionPane;
    shown: boolean;
    terminalId: string | null;
    command: string | null;
  }
>;

/** How a recording's narration ended (stop_recording's `narration`), or null with no captions. */
export type RecordingNarration = 'added' | 'pending' | 'skipped' | null;

export interface RecordingCaption {
  /** Seconds from the start of the finished video. */
  at: number;
  text: string;
}

export interface RecordingData {
  sessionId: string;
  /** Inside the box, under /workspace. */
  path: string;
  startedAt: string;
  recordedSeconds: number;
  seconds: number;
  bytes: number;
  captions: RecordingCaption[];
  /** The .vtt beside the video, when one was written. */
  track: string | null;
  narration: RecordingNarration;
}

/** The box's desktop server finished a recording (the web UI shows a player from it). */
export type RecordRecording = Command<'RecordRecording', RecordingData>;

/** What narrate_recording changed: the video's length and size, re-timed captions, its track. */
export type NarratedRecordingData = Pick<
  RecordingData,
  'sessionId' | 'path' | 'seconds' | 'bytes' | 'captions' | 'track'
>;

/** Narration added later (after a `pending` answer): the recording's player must follow it. */
export type RecordRecordingNarrated = Command<'RecordRecordingNarrated', NarratedRecordingData>;

export type SessionCommand =
  | CreateSession
  | SetSessionTitle
  | StopSession
  | ResumeSession
  | ArchiveSession
  | UnarchiveSession
  | DeleteSession
  | TakeSnapshot
  | RevertToSnapshot
  | TakeTurnSnapshot
  | RewindToTurn
  | Notify
  | RecordTerminalOpened
  | ReportTerminalOpened
  | RecordTerminalExited
  | RecordTerminalOutput
  | RecordTerminalTyped
  | RequestPane
  | RecordRecording
  | RecordRecordingNarrated;
