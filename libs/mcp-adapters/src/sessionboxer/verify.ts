import { caseTitles, E2E_LIMITS, paragraph } from '../e2e/fields';
import { defineTool } from '../kit/define-tool';

export const verifyInput = {
  brief: paragraph('brief', E2E_LIMITS.brief),
  cases: caseTitles('cases').optional(),
};

/** Opens an Auto QA run for the work of the calling session's turn. */
export const verifyTool = defineTool({
  name: 'verify',
  title: 'Open a verification run',
  description: [
    'Open an Auto QA (verification) run for the work of this turn. brief: what it checks',
    `(1–${E2E_LIMITS.brief} characters, several lines allowed), which the Auto QA pane shows`,
    'above the cases. Then follow the e2e-verification skill: e2e_plan (unless you give the',
    `cases here: cases, 1–${E2E_LIMITS.cases} one-line titles, numbered from 1), start_recording,`,
    'for each case e2e_case_start, test it, e2e_case_end, then stop_recording and e2e_finish with',
    "the video's path. Do not call verify when Sessionboxer already asked you to verify the turn",
    '(the Auto QA setting does that after every user turn): that run is open already, and a',
    'session has one open run at a time, so verify is refused until it is finished. Returns',
    '{ id, status, cases: [{ index, title, status }] }; the transcript gets the marker',
    '"opened verification run “…”".',
  ].join(' '),
  input: verifyInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'control-plane',
});
