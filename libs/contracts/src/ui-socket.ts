// The `/api/ui` socket: JSON frames `{event, data}` both ways, one typed map per direction
// (docs/web-ui.md lists them), so the gateway, its feeds and the browser agree on every frame.
import type { SessionPane } from '@sessionboxer/domain';
import type { PolicyView, Approval, SessionLimits } from './agent-sessions';
import type {
  NotificationPage,
  PrWithItems,
  Recording,
  Snapshot,
  TerminalListing,
  VerificationRun,
} from './panes';
import type { InboxPage } from './inbox';
import type { SessionView, SidebarNode } from './sessions';
import type { SshTerminalOutputFrame, SshTerminalView } from './terminals';
import type { QueuedPrompt, TranscriptPage } from './transcript';

/** `watch`: the session this browser shows (null: none), after its last transcript position. */
export interface WatchFrame {
  sessionId: string | null;
  after?: number;
}

/** `typing`: whether the person is typing in the prompt box. */
export interface TypingFrame {
  typing: boolean;
}

/** `session.terminal.input`: keystrokes typed into a box Terminal's live pane. */
export interface SessionTerminalInputFrame {
  sessionId: string;
  terminalId: string;
  data: string;
}

/** `session.terminal.resize`: the live pane's size, for the Terminal's PTY. */
export interface SessionTerminalResizeFrame {
  sessionId: string;
  terminalId: string;
  cols: number;
  rows: number;
}

/** What a browser sends. */
export interface UiClientEvents {
  watch: WatchFrame;
  typing: TypingFrame;
  'session.terminal.input': SessionTerminalInputFrame;
  'session.terminal.resize': SessionTerminalResizeFrame;
}

/** `session.terminal.output`: new bytes (base64) of a box Terminal, to browsers on its session. */
export interface SessionTerminalOutputFrame {
  sessionId: string;
  terminalId: string;
  offset: number;
  data: string;
}

/** `sidebar`: the body of `GET /api/sidebar`. */
export interface SidebarFrame {
  nodes: SidebarNode[];
}

/** `transcript`: the watched session's new entries, continuing from the watch's `after`. */
export interface TranscriptFrame extends TranscriptPage {
  sessionId: string;
}

/** `session`: each field the body of the session's REST GET of that name. */
export interface SessionFrame {
  sessionId: string;
  /** GET /api/sessions/:id */
  session: SessionView;
  /** GET /api/sessions/:id/queue */
  queue: QueuedPrompt[];
  /** GET /api/sessions/:id/approvals */
  approvals: Approval[];
  /** GET /api/sessions/:id/prs */
  prs: PrWithItems[];
  /** GET /api/sessions/:id/verifications */
  verifications: VerificationRun[];
  /** GET /api/sessions/:id/recordings */
  recordings: Recording[];
  /** GET /api/sessions/:id/notifications (its first page) */
  notifications: NotificationPage;
  /** GET /api/sessions/:id/snapshots */
  snapshots: Snapshot[];
  /** GET /api/sessions/:id/terminals */
  terminals: TerminalListing[];
  /** GET /api/sessions/:id/policy */
  policy: PolicyView;
  /** GET /api/sessions/:id/limits */
  limits: SessionLimits;
}

/** `pane`: an agent's ui_open, on the Terminal it started for it (if any). */
export interface PaneFrame {
  sessionId: string;
  pane: SessionPane;
  terminalId: string | null;
}

/**
 * `notification`: the agent's `notify`, as it is sent the moment it is recorded. Not the
 * bell's `Notification`: the next `session` frame brings that (with its time and source).
 */
export interface NotificationFrame {
  sessionId: string;
  notificationId: string;
  text: string;
}

/** `error`: a frame the control plane could not take (the socket stays open). */
export interface UiErrorFrame {
  code: string;
  message: string;
  /** The refused frame's event, and the Terminal it named (a refused keystroke or resize). */
  frame?: string;
  terminalId?: string;
}

/** What the control plane sends. `watching` answers a `watch` it took. */
export interface UiServerEvents {
  sidebar: SidebarFrame;
  transcript: TranscriptFrame;
  session: SessionFrame;
  pane: PaneFrame;
  notification: NotificationFrame;
  error: UiErrorFrame;
  watching: WatchFrame;
  /** Every SSH terminal (the approval cards are the pending ones), on change, to every browser. */
  terminals: SshTerminalView[];
  /** New bytes of an SSH terminal's output, to every browser (the Terminals view). */
  'terminal.output': SshTerminalOutputFrame;
  /** New bytes of a box Terminal of a session, to the browsers watching that session. */
  'session.terminal.output': SessionTerminalOutputFrame;
  /** The signed-in person's inbox (the body of `GET /api/inbox`), at connection and on change. */
  inbox: InboxPage;
}

/** One frame of a map: `{event, data}` as a union discriminated by `event`. */
export type UiFrame<Events> = {
  [E in keyof Events]: { event: E; data: Events[E] };
}[keyof Events];

export type UiServerFrame = UiFrame<UiServerEvents>;
export type UiClientFrame = UiFrame<UiClientEvents>;
