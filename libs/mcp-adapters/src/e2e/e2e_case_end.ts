import { CASE_RESULTS } from '@sessionboxer/domain';
import { oneOf } from '../kit/fields';
import { defineTool } from '../kit/define-tool';
import { caseIndex, E2E_LIMITS, paragraph, workspaceFile } from './fields';

export const e2eCaseEndInput = {
  index: caseIndex(),
  status: oneOf('status', CASE_RESULTS),
  note: paragraph('note', E2E_LIMITS.note).optional(),
  screenshot: workspaceFile('screenshot').optional(),
};

/** Records how the running attempt at a case ended. */
export const e2eCaseEndTool = defineTool({
  name: 'e2e_case_end',
  title: 'End a verification case',
  description: [
    'Record how the running case of the current Auto QA run ended: index (its number), status',
    `passed or failed, an optional note (1–${E2E_LIMITS.note} characters: what you saw, why it`,
    'failed) and an optional screenshot, the path of a PNG you saved under /workspace, which',
    'the Auto QA pane shows with the case. The case must have been started with e2e_case_start.',
    'A failed case: fix the cause, then start it again. Needs an open verification run; without',
    'one it errors. Returns the case with every attempt.',
  ].join(' '),
  input: e2eCaseEndInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'e2e',
});
