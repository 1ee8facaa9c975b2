import { DomainError, ErrorCode } from '../kernel';
import type { CaseResult } from './verification.commands';

/**
 * A run's status: `open` until its cases are planned, `running` while they are tested, then
 * its verdict (`passed`, `failed`) or `skipped`.
 */
export type VerificationStatus = 'open' | 'running' | 'passed' | 'failed' | 'skipped';

export const CLOSED_STATUSES: readonly VerificationStatus[] = ['passed', 'failed', 'skipped'];

/** What `decide` needs of a case: its number, title, how many attempts, how the last went. */
export interface CaseState {
  index: number;
  title: string;
  attempts: number;
  /** The last attempt: running, its result, or null before the first start. */
  last: 'running' | CaseResult | null;
}

export type VerificationState =
  | { status: 'absent' }
  | {
      status: VerificationStatus;
      runId: string;
      sessionId: string;
      /** Empty until planned; case n is `cases[n - 1]`. */
      cases: readonly CaseState[];
    };

export type ExistingVerification = Exclude<VerificationState, { status: 'absent' }>;

export const initialVerificationState: VerificationState = { status: 'absent' };

/** The run, or the refusal every command but OpenVerification gets without one. */
export function existingRun(state: VerificationState, runId: string): ExistingVerification {
  if (state.status === 'absent') {
    throw new DomainError(ErrorCode.NotFound, `verification run ${runId} does not exist`, {
      runId,
    });
  }
  if (state.runId !== runId) {
    throw new DomainError(
      ErrorCode.ValidationFailed,
      `the command names verification run ${runId}, but this stream holds run ${state.runId}`,
      { field: 'runId' },
    );
  }
  return state;
}

/** A closed run takes nothing more: the next verification is a new run. */
export function openRun(state: VerificationState, runId: string): ExistingVerification {
  const run = existingRun(state, runId);
  if (CLOSED_STATUSES.includes(run.status)) {
    throw new DomainError(
      ErrorCode.InvalidState,
      `verification run ${runId} is already closed (${run.status}); open a new one with verify`,
      { runId, status: run.status },
    );
  }
  return run;
}

/** A run whose cases are planned (the case tools and e2e_finish need them). */
export function plannedRun(state: VerificationState, runId: string): ExistingVerification {
  const run = openRun(state, runId);
  if (run.status === 'open') {
    throw new DomainError(
      ErrorCode.InvalidState,
      `verification run ${runId} has no cases yet: register them with e2e_plan first (or skip the run there)`,
      { runId, status: run.status },
    );
  }
  return run;
}

export function caseOf(run: ExistingVerification, index: number): CaseState {
  const found = run.cases[index - 1];
  if (found === undefined) {
    throw new DomainError(
      ErrorCode.NotFound,
      `verification run ${run.runId} has no case ${index}; its cases are 1–${run.cases.length}`,
      { runId: run.runId, index },
    );
  }
  return found;
}

/** The case whose attempt is running, if any (one at a time). */
export function runningCase(run: ExistingVerification): CaseState | undefined {
  return run.cases.find((c) => c.last === 'running');
}
