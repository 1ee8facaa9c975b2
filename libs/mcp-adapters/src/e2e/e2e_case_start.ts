import { defineTool } from '../kit/define-tool';
import { caseIndex } from './fields';

export const e2eCaseStartInput = { index: caseIndex() };

/** Starts an attempt at a case of the session's open run. */
export const e2eCaseStartTool = defineTool({
  name: 'e2e_case_start',
  title: 'Start a verification case',
  description: [
    'Mark a case of the current Auto QA run running, just before you test it: index is its',
    'number from e2e_plan (1 first). One case runs at a time: end it with e2e_case_end before',
    'starting the next. A failed case is started again after the fix; the run keeps every',
    'attempt. Needs an open verification run with its cases planned; without one it errors.',
    'Returns the case { index, title, status, attempts: [{ attempt, status, note, screenshot,',
    'startedAt, endedAt }] }.',
  ].join(' '),
  input: e2eCaseStartInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'e2e',
});
