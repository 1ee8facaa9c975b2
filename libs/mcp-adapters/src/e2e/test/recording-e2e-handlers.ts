import { RecordingHandlers, type Answer } from '../../kit/test/recording-handlers';
import type { E2eCase, E2eRun } from '../port';
import { e2eTools, parseE2eCall } from '../registry';

/** The Auto QA tools' test double: fixed answers in the spec's shape, every call recorded. */
export const RUN: E2eRun = {
  id: 'run-1',
  status: 'running',
  brief: 'Check the login form',
  cases: [{ index: 1, title: 'Log in', status: 'pending', attempts: [] }],
  verdict: null,
  video: null,
  summary: null,
  skipReason: null,
  openedAt: '2026-01-01T00:00:00.000Z',
  closedAt: null,
};

const caseOf = (index: number, status: E2eCase['status']): E2eCase => ({
  index,
  title: `Case ${index}`,
  status,
  attempts: [],
});

/** What each Auto QA tool answers, by name. */
export const E2E_ANSWERS: Record<string, Answer> = {
  e2e_plan: ({ skip }: { skip?: string }) =>
    skip === undefined ? RUN : { ...RUN, status: 'skipped', skipReason: skip },
  e2e_case_start: ({ index }: { index: number }) => caseOf(index, 'running'),
  e2e_case_end: ({ index, status }: { index: number; status: E2eCase['status'] }) =>
    caseOf(index, status),
  e2e_finish: ({ video, summary }: { video?: string; summary?: string }) => ({
    ...RUN,
    status: 'passed',
    verdict: 'passed',
    video: video ?? null,
    summary: summary ?? null,
  }),
};

/** The double of the Auto QA tools, generated from their registry. */
export function e2eDouble(sessionId = '3f2a0000-0000-4000-8000-000000000001'): RecordingHandlers {
  return new RecordingHandlers('Auto QA tool', e2eTools, parseE2eCall, E2E_ANSWERS, sessionId);
}
