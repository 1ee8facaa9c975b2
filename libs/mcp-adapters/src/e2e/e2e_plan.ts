import { z } from 'zod';
import { defineTool } from '../kit/define-tool';
import type { ArgIssue } from '../kit/tool';
import { caseTitles, E2E_LIMITS, paragraph } from './fields';

export const e2ePlanInput = {
  cases: caseTitles('cases').optional(),
  skip: paragraph('skip', E2E_LIMITS.skip).optional(),
};

type PlanArgs = z.infer<z.ZodObject<typeof e2ePlanInput>>;

const ONE_FORM = 'give either cases (the test cases) or skip (why nothing is testable)';

/** Exactly one of the two answers. */
function checkForm({ cases, skip }: PlanArgs): ArgIssue[] {
  if (cases !== undefined && skip !== undefined) {
    return [{ field: 'skip', message: `cases and skip were both given: ${ONE_FORM}, not both` }];
  }
  if (cases === undefined && skip === undefined) return [{ field: 'cases', message: ONE_FORM }];
  return [];
}

/** Registers the cases of the session's open run, or skips it. */
export const e2ePlanTool = defineTool({
  name: 'e2e_plan',
  title: 'Plan the verification run',
  description: [
    'Register the test cases of the current Auto QA run, or skip the run when the turn changed',
    'nothing testable (an answer-only turn, research). Call it once, before start_recording.',
    `cases: 1–${E2E_LIMITS.cases} titles, one line of 1–${E2E_LIMITS.caseTitle} characters each;`,
    'they are numbered from 1 in the order given (the index the case tools take). Or skip:',
    `the reason, 1–${E2E_LIMITS.skip} characters, which closes the run as skipped. Give exactly`,
    "one. Needs an open verification run (verify opens one, and Auto QA after a person's turn);",
    'without one it errors. Returns the run { id, status, brief, cases: [{ index, title,',
    'status, attempts }], verdict, video, summary, skipReason, openedAt, closedAt }.',
  ].join(' '),
  input: e2ePlanInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'e2e',
  check: checkForm,
});
