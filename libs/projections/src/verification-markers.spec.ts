import type { Actor } from '@sessionboxer/domain';
import { sessionCreated } from '../../domain/test/session-fixtures';
import {
  caseEnded,
  casesPlanned,
  caseStarted,
  runFinished,
  runSkipped,
  verificationOpened,
} from '../../domain/test/verification-fixtures';
import { ProjectionSpecification } from '../test/projection-spec';
import { by, recorded } from '../test/recorded-events';
import {
  transcriptMarkerQueries,
  transcriptMarkersProjection,
} from './transcript-markers.projection';

// The markers' projection's handling of Auto QA runs (verification-markers.ts).
const spec = ProjectionSpecification.for(transcriptMarkersProjection);
const AGENT: Actor = { kind: 'agent', sessionId: 's1' };
const AUTO_QA: Actor = { kind: 'system', id: 'auto-qa' };
const link = { verificationRunId: 'r1' };

describe('transcript markers of verification runs', () => {
  it('marks a run opened, quoting its brief on one line cut at 80, and its verdict at finish', () => {
    const brief = `Check the login\nform ${'x'.repeat(80)}`;
    const events = recorded([
      sessionCreated({ sessionId: 's1' }),
      by(AGENT, verificationOpened(brief)),
      by(AGENT, casesPlanned()),
      by(AGENT, caseStarted(1)),
      by(AGENT, caseEnded(1, 'failed')),
      by(AGENT, caseStarted(2)),
      by(AGENT, caseEnded(2, 'passed')),
      by(
        AGENT,
        runFinished('failed', ['failed', 'passed', 'skipped'], { video: '/workspace/v.mp4' }),
      ),
    ]);
    spec.given(events).thenQuery(
      (r) =>
        transcriptMarkerQueries(r)
          .page('s1')
          .markers.slice(1)
          .map((m) => [m.position, m.kind, m.text, m.link, m.actor]),
      [
        [
          2,
          'verification-opened',
          `opened verification run “Check the login form ${'x'.repeat(58)}…”`,
          link,
          AGENT,
        ],
        [
          8,
          'verification-finished',
          'finished the verification run: failed (1 passed, 1 failed, 1 skipped)',
          link,
          AGENT,
        ],
      ],
    );
  });

  it('marks a run Auto QA opened as Sessionboxer’s, and a skip with its reason', () => {
    const events = recorded([
      by(AUTO_QA, verificationOpened('Verify what the turn changed')),
      by(AGENT, runSkipped('an answer-only turn')),
    ]);
    spec.given(events).thenQuery(
      (r) =>
        transcriptMarkerQueries(r)
          .page('s1')
          .markers.map((m) => [m.kind, m.text, m.actor]),
      [
        ['verification-opened', 'opened verification run “Verify what the turn changed”', AUTO_QA],
        ['verification-skipped', 'skipped the verification run: an answer-only turn', AGENT],
      ],
    );
  });

  it('says only passed for a finished run whose cases all passed', () => {
    const events = recorded([
      verificationOpened(),
      casesPlanned(['one']),
      runFinished('passed', ['passed']),
    ]);
    spec.given(events).thenQuery(
      (r) =>
        transcriptMarkerQueries(r)
          .page('s1')
          .markers.map((m) => m.text)
          .slice(1),
      ['finished the verification run: passed (1 passed)'],
    );
  });
});
