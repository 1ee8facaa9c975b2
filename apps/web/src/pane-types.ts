// The shapes of what a session's panes and its bell show, as the UI reads them from the control
// plane (libs/projections and the REST controllers are their source; only the fields the UI
// uses are spelled out), and which pane shows what.

export interface PrItem {
  id: string;
  kind: 'review_comment' | 'review' | 'check';
  author: string | null;
  body: string;
  path: string | null;
  line: number | null;
  conclusion: string | null;
  url: string | null;
  addressed: boolean;
}

export interface PullRequest {
  id: string;
  owner: string;
  repo: string;
  number: number;
  url: string;
  title: string;
  state: 'open' | 'closed' | 'merged';
  checks: { passed: number; failed: number; pending: number };
  unaddressed: number;
  /** Its checks and review items, each with its addressed mark. */
  items: PrItem[];
}

export interface VerificationAttempt {
  attempt: number;
  status: string;
  note: string | null;
  screenshot: string | null;
}

export interface VerificationCase {
  index: number;
  title: string;
  status: string;
  attempts: VerificationAttempt[];
}

export interface VerificationRun {
  id: string;
  brief: string;
  status: string;
  openedAt: string;
  cases: VerificationCase[];
  verdict: string | null;
  video: string | null;
  summary: string | null;
  skipReason: string | null;
}

export interface Caption {
  at: number;
  text: string;
}

export interface Recording {
  id: string;
  path: string;
  seconds: number;
  captions: Caption[];
  track: string | null;
  finishedAt: string;
}

export interface Notification {
  id: string;
  sessionId: string;
  text: string;
  source: string;
  at: string;
  read: boolean;
}

export interface Snapshot {
  id: string;
  ordinal: number;
  sizeBytes: number;
  createdAt: string;
}

export interface Terminal {
  id: string;
  createdAt: string;
  exitCode: number | null;
  command?: string[];
}

/** The panes of the session view, in tab order. */
export type PaneName = 'prs' | 'autoqa' | 'terminals' | 'snapshots' | 'recordings';

/** What a pane should bring into view when it opens (a marker's link, an agent's ui_open). */
export interface PaneFocus {
  snapshotId?: string;
  terminalId?: string;
  recording?: string;
  runId?: string;
}
