import type { DomainEvent } from '../kernel';
import type { CaseResult } from './verification.commands';

/** How a case stands once its run is closed: its last attempt's result, or never started. */
export type FinalCaseStatus = CaseResult | 'skipped';

/**
 * Every event carries the run's and its session's ids and the command's `at`, so a read model
 * (the Auto QA pane, whoami, the transcript's markers) is built from the event data alone.
 */
export type VerificationOpened = DomainEvent<
  'VerificationOpened',
  { runId: string; sessionId: string; brief: string; at: string }
>;

/** Numbered from 1 in the order given. */
export type VerificationCasesPlanned = DomainEvent<
  'VerificationCasesPlanned',
  { runId: string; sessionId: string; cases: { index: number; title: string }[]; at: string }
>;

export type VerificationSkipped = DomainEvent<
  'VerificationSkipped',
  { runId: string; sessionId: string; reason: string; at: string }
>;

/** `attempt`: 1 for the case's first start, 2 when it is started again, … */
export type VerificationCaseStarted = DomainEvent<
  'VerificationCaseStarted',
  { runId: string; sessionId: string; index: number; attempt: number; at: string }
>;

export type VerificationCaseEnded = DomainEvent<
  'VerificationCaseEnded',
  {
    runId: string;
    sessionId: string;
    index: number;
    attempt: number;
    status: CaseResult;
    note: string | null;
    screenshot: string | null;
    at: string;
  }
>;

/**
 * `cases`: every case's final status (a case never started is `skipped`); `verdict` is passed
 * when no case's last attempt failed.
 */
export type VerificationFinished = DomainEvent<
  'VerificationFinished',
  {
    runId: string;
    sessionId: string;
    verdict: CaseResult;
    cases: { index: number; status: FinalCaseStatus }[];
    video: string | null;
    summary: string | null;
    at: string;
  }
>;

export type VerificationEvent =
  | VerificationOpened
  | VerificationCasesPlanned
  | VerificationSkipped
  | VerificationCaseStarted
  | VerificationCaseEnded
  | VerificationFinished;

export const VERIFICATION_EVENT_TYPES: readonly VerificationEvent['type'][] = [
  'VerificationOpened',
  'VerificationCasesPlanned',
  'VerificationSkipped',
  'VerificationCaseStarted',
  'VerificationCaseEnded',
  'VerificationFinished',
];

/** Narrows an event read from a store to a verification run's event. */
export function isVerificationEvent(event: {
  type: string;
  data: unknown;
}): event is VerificationEvent {
  return (VERIFICATION_EVENT_TYPES as readonly string[]).includes(event.type);
}
