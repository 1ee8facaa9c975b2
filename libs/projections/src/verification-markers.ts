import { assertNever, isVerificationEvent, type VerificationFinished } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange } from './projection';
import { cut, oneLine } from './text';
import { marker, type TranscriptMarker } from './transcript-marker';

/** How much of a run's brief (and of a skip's reason) its marker quotes. */
export const VERIFICATION_QUOTE_MAX = 80;

const quote = (text: string) => cut(oneLine(text), VERIFICATION_QUOTE_MAX);

/** "2 passed, 1 failed, 1 skipped": only the counts there are. */
function counts(cases: VerificationFinished['data']['cases']): string {
  const parts = (['passed', 'failed', 'skipped'] as const)
    .map((status) => [status, cases.filter((c) => c.status === status).length] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/**
 * The markers of a session's Auto QA runs: "opened verification run “<brief>”" where a run
 * opens (the spec's marker), then where it closes "finished the verification run: passed (2
 * passed, 1 skipped)" or "skipped the verification run: <reason>". Each links to its run.
 */
export function verificationMarkers(event: RecordedEvent): DocumentChange<TranscriptMarker>[] {
  if (!isVerificationEvent(event)) return [];
  const { sessionId, runId } = event.data;
  const link = { verificationRunId: runId };
  switch (event.type) {
    case 'VerificationOpened': {
      const text = `opened verification run “${quote(event.data.brief)}”`;
      return [marker(event, sessionId, 'verification-opened', text, link)];
    }
    case 'VerificationSkipped': {
      const text = `skipped the verification run: ${quote(event.data.reason)}`;
      return [marker(event, sessionId, 'verification-skipped', text, link)];
    }
    case 'VerificationFinished': {
      const { verdict, cases } = event.data;
      const text = `finished the verification run: ${verdict}${counts(cases)}`;
      return [marker(event, sessionId, 'verification-finished', text, link)];
    }
    // The cases fill the Auto QA pane; the transcript shows the run open and close.
    case 'VerificationCasesPlanned':
    case 'VerificationCaseStarted':
    case 'VerificationCaseEnded':
      return [];
    default:
      return assertNever(event);
  }
}
