/** How a check's conclusion counts in a PR's summary. */
export type CheckOutcome = 'passed' | 'failed' | 'pending';

// GitHub's check-run conclusions and commit-status states. Anything else (null, pending,
// queued, in_progress, waiting, requested, expected, stale) has not settled yet.
const PASSED: readonly string[] = ['success', 'neutral', 'skipped'];
const FAILED: readonly string[] = [
  'failure',
  'cancelled',
  'timed_out',
  'action_required',
  'startup_failure',
  'error',
];

export function checkOutcome(conclusion: string | null): CheckOutcome {
  if (conclusion === null) return 'pending';
  if (PASSED.includes(conclusion)) return 'passed';
  if (FAILED.includes(conclusion)) return 'failed';
  return 'pending';
}
