import type { Actor, CurrentVerificationRunSet } from '@sessionboxer/domain';
import {
  BRIEF,
  caseEnded,
  casesPlanned,
  caseStarted,
  runFinished,
  runSkipped,
  TITLES,
  verificationOpened,
} from '../../domain/test/verification-fixtures';
import { ProjectionSpecification } from '../test/projection-spec';
import { by, recorded } from '../test/recorded-events';
import {
  verificationQueries,
  verificationsProjection,
  type VerificationRunDoc,
} from './verifications.projection';

const spec = ProjectionSpecification.for(verificationsProjection);
const AT = '2026-01-02T03:04:05.000Z';
const AGENT: Actor = { kind: 'agent', sessionId: 's1' };
const AUTO_QA: Actor = { kind: 'system', id: 'auto-qa' };

function current(runId: string, previousRunId: string | null = null): CurrentVerificationRunSet {
  const data = { sessionId: 's1', runId, previousRunId, at: AT };
  return { type: 'CurrentVerificationRunSet', data };
}

function run(fields: Partial<VerificationRunDoc> = {}): VerificationRunDoc {
  return {
    id: 'r1',
    sessionId: 's1',
    brief: BRIEF,
    status: 'open',
    openedBy: AGENT,
    openedAt: AT,
    cases: [],
    verdict: null,
    video: null,
    summary: null,
    skipReason: null,
    closedAt: null,
    position: 2,
    ...fields,
  };
}

const pending = (index: number) => ({
  index,
  title: TITLES[index - 1],
  status: 'pending' as const,
  attempts: [],
});
const attempt = (
  n: number,
  status: 'running' | 'passed' | 'failed',
  note: string | null = null,
) => ({
  attempt: n,
  status,
  note,
  screenshot: null,
  startedAt: AT,
  endedAt: status === 'running' ? null : AT,
});

describe('verifications projection', () => {
  describe('no run', () => {
    it('finds nothing: whoami says null', () => {
      spec.given([]).thenQuery((r) => verificationQueries(r).summary('s1'), null);
      spec.given([]).thenQuery((r) => verificationQueries(r).list('s1'), []);
    });
  });

  describe('a run opened by the agent', () => {
    const events = recorded([by(AGENT, current('r1')), by(AGENT, verificationOpened())]);

    it('is the current run, open, with who opened it and no cases', () => {
      spec.given(events).thenQuery((r) => verificationQueries(r).current('s1'), run());
      spec.given(events).thenQuery((r) => verificationQueries(r).summary('s1'), {
        id: 'r1',
        status: 'open',
        brief: BRIEF,
      });
    });

    it('is no other session’s', () => {
      spec.given(events).thenQuery((r) => verificationQueries(r).current('s2'), null);
    });
  });

  describe('planned and tested: case 1 failed, then passed after the fix; case 2 failed', () => {
    const history = [
      by(AUTO_QA, current('r1')),
      by(AUTO_QA, verificationOpened()),
      by(AGENT, casesPlanned()),
      by(AGENT, caseStarted(1)),
      by(
        AGENT,
        caseEnded(1, 'failed', {
          note: 'the button does nothing',
          screenshot: '/workspace/qa/1.png',
        }),
      ),
      by(AGENT, caseStarted(1, 2)),
      by(AGENT, caseEnded(1, 'passed', { attempt: 2 })),
      by(AGENT, caseStarted(2)),
      by(AGENT, caseEnded(2, 'failed')),
    ];
    const events = recorded(history);
    const tested = [
      {
        ...pending(1),
        status: 'passed' as const,
        attempts: [
          { ...attempt(1, 'failed', 'the button does nothing'), screenshot: '/workspace/qa/1.png' },
          attempt(2, 'passed'),
        ],
      },
      { ...pending(2), status: 'failed' as const, attempts: [attempt(1, 'failed')] },
      pending(3),
    ];

    it('keeps every attempt of a case, its status that of the last', () => {
      spec
        .given(events)
        .thenQuery(
          (r) => verificationQueries(r).get('r1'),
          run({ openedBy: AUTO_QA, status: 'running', cases: tested }),
        );
    });

    it('shows a case running while its attempt runs', () => {
      spec
        .given(recorded([current('r1'), verificationOpened(), casesPlanned(), caseStarted(3)]))
        .thenQuery((r) => verificationQueries(r).get('r1')?.cases[2], {
          ...pending(3),
          status: 'running',
          attempts: [attempt(1, 'running')],
        });
    });

    it('at finish marks never-started cases skipped and attaches the video and verdict', () => {
      const finished = runFinished('failed', ['passed', 'failed', 'skipped'], {
        video: '/workspace/qa/run.mp4',
        summary: 'Case 2 still fails',
      });
      spec.given(recorded([...history, by(AGENT, finished)])).thenQuery(
        (r) => verificationQueries(r).get('r1'),
        run({
          openedBy: AUTO_QA,
          status: 'failed',
          verdict: 'failed',
          cases: [tested[0], tested[1], { ...pending(3), status: 'skipped' }],
          video: '/workspace/qa/run.mp4',
          summary: 'Case 2 still fails',
          closedAt: AT,
        }),
      );
    });
  });

  describe('a skipped run, then a second run', () => {
    const events = recorded([
      current('r1'),
      verificationOpened(),
      runSkipped('research only'),
      current('r2', 'r1'),
      verificationOpened('Second brief', 'r2'),
    ]);

    it('lists both oldest first; the current one is the second', () => {
      spec.given(events).thenQuery(
        (r) =>
          verificationQueries(r)
            .list('s1')
            .map((d) => [d.id, d.status, d.skipReason]),
        [
          ['r1', 'skipped', 'research only'],
          ['r2', 'open', null],
        ],
      );
      spec.given(events).thenQuery((r) => verificationQueries(r).summary('s1'), {
        id: 'r2',
        status: 'open',
        brief: 'Second brief',
      });
    });

    it('shows the skipped one as closed when it is still current', () => {
      spec.given(events.slice(0, 3)).thenQuery((r) => verificationQueries(r).summary('s1'), {
        id: 'r1',
        status: 'skipped',
        brief: BRIEF,
      });
    });
  });

  it('says null for a current run that was never opened (a crash between the two writes)', () => {
    spec
      .given(recorded([current('r9')]))
      .thenQuery((r) => verificationQueries(r).summary('s1'), null);
  });
});
