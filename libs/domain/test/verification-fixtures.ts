import type {
  CaseResult,
  EndCase,
  FinalCaseStatus,
  FinishRun,
  OpenVerification,
  PlanCases,
  SkipRun,
  StartCase,
  VerificationCaseEnded,
  VerificationCaseStarted,
  VerificationCasesPlanned,
  VerificationFinished,
  VerificationOpened,
  VerificationSkipped,
} from '../src';
import { AT, meta } from './session-fixtures';

/** Builders for verification commands and events; every one is about run r1 of session s1. */
export const RUN = 'r1';
export const SESSION = 's1';
export const BRIEF = 'Check the login form after the retry change';
export const TITLES = ['Log in with a good password', 'A wrong password is refused', 'Log out'];
const ids = { runId: RUN, sessionId: SESSION };

export function openVerification(fields: Partial<OpenVerification['data']> = {}): OpenVerification {
  return { type: 'OpenVerification', data: { ...ids, brief: BRIEF, ...fields }, metadata: meta() };
}

export function planCases(cases: unknown[] = TITLES, runId = RUN): PlanCases {
  return { type: 'PlanCases', data: { runId, cases: cases as string[] }, metadata: meta() };
}

export function skipRun(reason: unknown = 'an answer-only turn'): SkipRun {
  return { type: 'SkipRun', data: { runId: RUN, reason: reason as string }, metadata: meta() };
}

export function startCase(index: number): StartCase {
  return { type: 'StartCase', data: { runId: RUN, index }, metadata: meta() };
}

export function endCase(
  index: number,
  status: CaseResult,
  fields: Partial<EndCase['data']> = {},
): EndCase {
  return { type: 'EndCase', data: { runId: RUN, index, status, ...fields }, metadata: meta() };
}

export function finishRun(fields: Partial<FinishRun['data']> = {}): FinishRun {
  return { type: 'FinishRun', data: { runId: RUN, ...fields }, metadata: meta() };
}

export function verificationOpened(brief = BRIEF, runId = RUN): VerificationOpened {
  return { type: 'VerificationOpened', data: { ...ids, runId, brief, at: AT } };
}

export function casesPlanned(titles: string[] = TITLES): VerificationCasesPlanned {
  const cases = titles.map((title, i) => ({ index: i + 1, title }));
  return { type: 'VerificationCasesPlanned', data: { ...ids, cases, at: AT } };
}

export function runSkipped(reason = 'an answer-only turn'): VerificationSkipped {
  return { type: 'VerificationSkipped', data: { ...ids, reason, at: AT } };
}

export function caseStarted(index: number, attempt = 1): VerificationCaseStarted {
  return { type: 'VerificationCaseStarted', data: { ...ids, index, attempt, at: AT } };
}

export function caseEnded(
  index: number,
  status: CaseResult,
  fields: Partial<VerificationCaseEnded['data']> = {},
): VerificationCaseEnded {
  const result = { attempt: 1, status, note: null, screenshot: null, ...fields };
  return { type: 'VerificationCaseEnded', data: { ...ids, index, ...result, at: AT } };
}

export function runFinished(
  verdict: CaseResult,
  statuses: FinalCaseStatus[],
  fields: Partial<VerificationFinished['data']> = {},
): VerificationFinished {
  const cases = statuses.map((status, i) => ({ index: i + 1, status }));
  const data = { ...ids, verdict, cases, video: null, summary: null, ...fields, at: AT };
  return { type: 'VerificationFinished', data };
}
