/**
 * What the Auto QA (`e2e_*`) tools answer: the calling session's open verification run and
 * its cases, in the shapes of the Auto QA section of
 * shared/spec/sessionboxer-desktop-and-sessionboxer-mcp.txt.
 */

/** `open` until planned, `running` while tested, then the verdict or `skipped`. */
export type E2eRunStatus = 'open' | 'running' | 'passed' | 'failed' | 'skipped';

/** `pending` until first started; `skipped` when the run closed before it was started. */
export type E2eCaseStatus = 'pending' | 'running' | 'passed' | 'failed' | 'skipped';

export type E2eResult = 'passed' | 'failed';

/** One attempt at a case; a failed case started again after the fix gets the next one. */
export interface E2eAttempt {
  attempt: number;
  status: 'running' | E2eResult;
  note: string | null;
  screenshot: string | null;
  startedAt: string;
  endedAt: string | null;
}

export interface E2eCase {
  index: number;
  title: string;
  /** The last attempt's status. */
  status: E2eCaseStatus;
  attempts: E2eAttempt[];
}

/** A verification run as the Auto QA pane shows it. */
export interface E2eRun {
  id: string;
  status: E2eRunStatus;
  brief: string;
  cases: E2eCase[];
  /** Once finished: passed when no case's last attempt failed. */
  verdict: E2eResult | null;
  video: string | null;
  summary: string | null;
  skipReason: string | null;
  openedAt: string;
  closedAt: string | null;
}

export interface E2eCaseResult {
  status: E2eResult;
  note: string | null;
  screenshot: string | null;
}
