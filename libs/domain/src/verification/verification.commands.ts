import type { Command } from '../kernel';

/** How one attempt at a case ended: what e2e_case_end reports. */
export type CaseResult = 'passed' | 'failed';

export const CASE_RESULTS = ['passed', 'failed'] as const satisfies readonly CaseResult[];

/**
 * Opens an Auto QA run of a session: `verify` (the agent's own) or Auto QA after a person's
 * turn. `cases` given here plans them at once (verify's optional cases), numbered from 1.
 */
export type OpenVerification = Command<
  'OpenVerification',
  { runId: string; sessionId: string; brief: string; cases?: string[] }
>;

/** e2e_plan: the run's cases, in the order given, numbered from 1. Once per run. */
export type PlanCases = Command<'PlanCases', { runId: string; cases: string[] }>;

/** e2e_plan's other answer: the turn changed nothing testable. Only instead of planning. */
export type SkipRun = Command<'SkipRun', { runId: string; reason: string }>;

/** e2e_case_start: a new attempt at the case (a failed case is started again after the fix). */
export type StartCase = Command<'StartCase', { runId: string; index: number }>;

/** e2e_case_end: the running attempt's result; `screenshot` is a file under /workspace. */
export type EndCase = Command<
  'EndCase',
  { runId: string; index: number; status: CaseResult; note?: string; screenshot?: string }
>;

/** e2e_finish: closes the run with its video (a file under /workspace) and a summary. */
export type FinishRun = Command<'FinishRun', { runId: string; video?: string; summary?: string }>;

export type VerificationCommand =
  OpenVerification | PlanCases | SkipRun | StartCase | EndCase | FinishRun;
