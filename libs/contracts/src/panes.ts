// The bodies of a session's panes and its bell: PRs, Auto QA, recordings, notifications,
// snapshots, Terminals.
import type {
  Actor,
  CaseResult,
  NotificationSource,
  PrItemInput,
  PrState,
  RecordingData,
  VerificationStatus,
} from '@sessionboxer/domain';

/** pr_list's summary of an attached PR. */
export interface PrSummary {
  /** `owner/repo#number`: what pr_items and pr_mark_addressed take. */
  id: string;
  owner: string;
  repo: string;
  number: number;
  url: string;
  title: string;
  state: PrState;
  /** From each check's latest conclusion. */
  checks: { passed: number; failed: number; pending: number };
  /** Review comments and reviews not marked addressed. */
  unaddressed: number;
}

/** A review comment, review or check of a PR (the domain's item), and whether it was addressed. */
export type PrItem = PrItemInput & { addressed: boolean };

/** pr_items' and pr_mark_addressed's answer. */
export interface PrWithItemsAnswer {
  pr: PrSummary;
  items: PrItem[];
}

/** `GET /api/sessions/:id/prs`: each PR with its checks and review items, as its pane shows it. */
export type PrWithItems = PrSummary & { items: PrItem[] };

/** One attempt at a case: a failed case started again after the fix gets a second one. */
export interface VerificationAttempt {
  attempt: number;
  status: 'running' | CaseResult;
  note: string | null;
  screenshot: string | null;
  startedAt: string;
  endedAt: string | null;
}

/** `pending` until first started; `skipped` when the run closed without it being started. */
export type VerificationCaseStatus = 'pending' | 'running' | CaseResult | 'skipped';

export interface VerificationCase {
  index: number;
  title: string;
  /** Its last attempt's status. */
  status: VerificationCaseStatus;
  attempts: VerificationAttempt[];
}

/** `GET /api/sessions/:id/verifications`: an Auto QA run as its pane shows it. */
export interface VerificationRun {
  id: string;
  sessionId: string;
  brief: string;
  status: VerificationStatus;
  /** Who opened it: the agent (`verify`) or Sessionboxer's Auto QA (`system` auto-qa). */
  openedBy: Actor;
  openedAt: string;
  cases: VerificationCase[];
  /** Set when finished: passed when no case's last attempt failed. */
  verdict: CaseResult | null;
  video: string | null;
  summary: string | null;
  skipReason: string | null;
  closedAt: string | null;
  position: number;
}

/** whoami's `verification`. */
export interface VerificationSummary {
  id: string;
  status: VerificationStatus;
  brief: string;
}

/** `GET /api/sessions/:id/recordings`: a finished recording of the box's desktop. */
export interface Recording extends Omit<RecordingData, 'sessionId'> {
  id: string;
  sessionId: string;
  finishedAt: string;
  position: number;
}

/** A notification as the bell lists it. */
export interface Notification {
  id: string;
  sessionId: string;
  text: string;
  source: NotificationSource;
  at: string;
  /** Always false for now: nothing marks a notification read yet. */
  read: boolean;
}

/** `GET /api/sessions/:id/notifications`. */
export interface NotificationPage {
  notifications: Notification[];
  /** Pass as `after` for the next page; null when this page was the last. */
  next: number | null;
}

/** `GET /api/sessions/:id/snapshots`; `{ id, ordinal, sizeBytes, createdAt }` is snapshot's. */
export interface Snapshot {
  id: string;
  sessionId: string;
  ordinal: number;
  sizeBytes: number;
  createdAt: string;
  /** Where the conversation stood when it was taken; null if unknown. */
  conversationPosition: number | null;
}

/** The snapshot tool's answer. */
export type SnapshotResult = Pick<Snapshot, 'id' | 'ordinal' | 'sizeBytes' | 'createdAt'>;

/** terminal_list's row (and whoami's `terminals`). */
export interface TerminalSummary {
  id: string;
  createdAt: string;
  /** null while the shell still runs. */
  exitCode: number | null;
}

/** `GET /api/sessions/:id/terminals`; `command` is its argv, absent for a login shell. */
export interface TerminalListing extends TerminalSummary {
  command?: string[];
}

/** `GET /api/sessions/:id/terminals/:terminalId` (and terminal_read): its retained output. */
export interface TerminalOutput {
  id: string;
  text: string;
  exitCode: number | null;
}

/**
 * `GET /api/sessions/:id/terminals/:terminalId/output?afterOffset=&limit=`: recorded bytes of a
 * Terminal's output from the history, base64 (a page may end inside a UTF-8 character; xterm
 * joins it with the next). Read on from `endOffset`; `truncated` says more is recorded.
 */
export interface TerminalOutputPage {
  data: string;
  startOffset: number;
  endOffset: number;
  truncated: boolean;
}

/** One entry of a box folder in the Files pane; `size` for files only. Links are not followed. */
export interface BoxDirEntry {
  name: string;
  kind: 'file' | 'dir' | 'link' | 'other';
  size: number | null;
}

/** `GET /api/sessions/:id/dirs?path=/workspace/…`: a folder of the box's workspace. */
export interface BoxDirListing {
  /** The folder as the box names it (`/workspace` or `/workspace/…`). */
  path: string;
  /** Folders first, then by name; at most 1,000. */
  entries: BoxDirEntry[];
  /** How many entries were left out past the first 1,000. */
  more: number;
}
