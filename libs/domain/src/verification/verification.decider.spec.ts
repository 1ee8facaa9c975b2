import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import {
  BRIEF,
  caseEnded,
  casesPlanned,
  caseStarted,
  endCase,
  finishRun,
  openVerification,
  planCases,
  runFinished,
  runSkipped,
  skipRun,
  startCase,
  TITLES,
  verificationOpened,
} from '../../test/verification-fixtures';
import { verificationDecider, verificationStream } from './verification.decider';

const spec = DeciderSpecification.for(verificationDecider);
const planned = [verificationOpened(), casesPlanned()];

describe('verification decider', () => {
  describe('no run yet', () => {
    const given = spec.given([]);

    it('opens with its brief, trimmed, several lines allowed', () => {
      given
        .when(openVerification({ brief: `  ${BRIEF}\r\nand the logout  ` }))
        .then([verificationOpened(`${BRIEF}\nand the logout`)]);
    });

    it('plans cases given at the opening, numbered from 1 in the order given', () => {
      given
        .when(openVerification({ cases: TITLES }))
        .then([verificationOpened(), casesPlanned(TITLES)]);
    });

    it.each([
      ['a blank brief', { brief: '  ' }, /brief must not be empty/],
      ['a brief of 2,001 characters', { brief: 'x'.repeat(2001) }, /brief must be at most 2000/],
      ['a brief with a NUL', { brief: 'a\0b' }, /brief must not contain control characters/],
      ['no cases in the list', { cases: [] }, /cases must list at least one case title/],
      ['51 cases', { cases: Array(51).fill('c') }, /at most 50 cases \(got 51\)/],
      ['a case title on two lines', { cases: ['ok', 'a\nb'] }, /cases\[1\] must not contain/],
      ['a blank run id', { runId: '' }, /runId must not be empty/],
    ])('refuses %s', (_case, fields, why) => {
      given.when(openVerification(fields)).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it.each([
      ['planned', planCases()],
      ['skipped', skipRun()],
      ['started', startCase(1)],
      ['finished', finishRun()],
    ])('cannot be %s', (_case, command) => {
      given.when(command).thenThrows(ErrorCode.NotFound, 'verification run r1 does not exist');
    });
  });

  describe('open, no cases yet', () => {
    const given = spec.given([verificationOpened()]);

    it('refuses to be opened again', () => {
      given.when(openVerification()).thenThrows(ErrorCode.AlreadyExists, /already exists/);
    });

    it('plans its cases once, numbered from 1', () => {
      given.when(planCases(['  First ', 'Second'])).then([casesPlanned(['First', 'Second'])]);
    });

    it('refuses a command that names another run than its stream holds', () => {
      given
        .when(planCases(TITLES, 'r2'))
        .thenThrows(ErrorCode.ValidationFailed, 'names verification run r2, but this stream');
    });

    it('is skipped when the turn changed nothing testable', () => {
      given.when(skipRun(' an answer-only turn ')).then([runSkipped()]);
      given.when(skipRun('')).thenThrows(ErrorCode.ValidationFailed, /reason must not be empty/);
    });

    it.each([
      ['a case started', startCase(1)],
      ['a case ended', endCase(1, 'passed')],
      ['a finish', finishRun()],
    ])('refuses %s: the cases come first', (_case, command) => {
      given
        .when(command)
        .thenThrows(ErrorCode.InvalidState, /has no cases yet: register them with e2e_plan/);
    });
  });

  describe('planned, nothing started', () => {
    const given = spec.given(planned);

    it('refuses a second plan and a skip', () => {
      given.when(planCases()).thenThrows(ErrorCode.InvalidState, /e2e_plan is called once/);
      given.when(skipRun()).thenThrows(ErrorCode.InvalidState, /close the run with e2e_finish/);
    });

    it('starts a case as its attempt 1', () => {
      given.when(startCase(2)).then([caseStarted(2, 1)]);
    });

    it('refuses a case it does not have, naming its cases', () => {
      given.when(startCase(4)).thenThrows(ErrorCode.NotFound, 'has no case 4; its cases are 1–3');
      given.when(startCase(0)).thenThrows(ErrorCode.ValidationFailed, /index must be between 1/);
    });

    it('refuses to end a case that was never started', () => {
      given
        .when(endCase(1, 'passed'))
        .thenThrows(
          ErrorCode.InvalidState,
          /case 1 \(“Log in with a good password”\) is not running \(it was never started\)/,
        );
    });

    it('finishes with every case skipped and the verdict passed (no last attempt failed)', () => {
      given.when(finishRun({ video: '/workspace/qa/run.mp4' })).then([
        runFinished('passed', ['skipped', 'skipped', 'skipped'], {
          video: '/workspace/qa/run.mp4',
        }),
      ]);
    });
  });

  describe('a case running', () => {
    const given = spec.given([...planned, caseStarted(1)]);

    it('ends it with a note and a screenshot', () => {
      const fields = { note: 'redirected to /home', screenshot: '/workspace/qa/1.png' };
      given.when(endCase(1, 'passed', fields)).then([caseEnded(1, 'passed', fields)]);
    });

    it('runs one case at a time', () => {
      given
        .when(startCase(2))
        .thenThrows(
          ErrorCode.InvalidState,
          /case 1 \(“Log in with a good password”\) is still running/,
        );
      given.when(startCase(1)).thenThrows(ErrorCode.InvalidState, /already running \(attempt 1\)/);
      given
        .when(finishRun())
        .thenThrows(
          ErrorCode.InvalidState,
          /still running; end it with e2e_case_end before e2e_finish/,
        );
    });

    it.each([
      ['an unknown status', endCase(1, 'flaky' as 'passed'), /status must be passed or failed/],
      [
        'a screenshot outside /workspace',
        endCase(1, 'passed', { screenshot: '/tmp/1.png' }),
        /screenshot must be a file under \/workspace/,
      ],
      [
        'a relative screenshot',
        endCase(1, 'passed', { screenshot: 'qa/1.png' }),
        /screenshot must be an absolute path/,
      ],
      [
        'a screenshot with ..',
        endCase(1, 'passed', { screenshot: '/workspace/../etc/passwd' }),
        /must be normalised/,
      ],
      [
        'a note of 2,001 characters',
        endCase(1, 'failed', { note: 'x'.repeat(2001) }),
        /note must be at most 2000/,
      ],
    ])('refuses %s', (_case, command, why) => {
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });
  });

  describe('case 1 failed, case 2 passed', () => {
    const history = [
      ...planned,
      caseStarted(1),
      caseEnded(1, 'failed', { note: 'the button does nothing' }),
      caseStarted(2),
      caseEnded(2, 'passed'),
    ];
    const given = spec.given(history);

    it('starts the failed case again as attempt 2, keeping attempt 1', () => {
      given.when(startCase(1)).then([caseStarted(1, 2)]);
      spec
        .given([...history, caseStarted(1, 2)])
        .when(endCase(1, 'passed'))
        .then([caseEnded(1, 'passed', { attempt: 2 })]);
    });

    it('refuses to end a case whose attempt is over', () => {
      given
        .when(endCase(2, 'failed'))
        .thenThrows(ErrorCode.InvalidState, /its attempt 1 ended passed/);
    });

    it('finishes failed: a case whose last attempt failed; never started is skipped', () => {
      given
        .when(finishRun({ summary: ' Login is broken ' }))
        .then([
          runFinished('failed', ['failed', 'passed', 'skipped'], { summary: 'Login is broken' }),
        ]);
    });

    it('finishes passed once the failed case passed on its second attempt', () => {
      spec
        .given([...history, caseStarted(1, 2), caseEnded(1, 'passed', { attempt: 2 })])
        .when(finishRun())
        .then([runFinished('passed', ['passed', 'passed', 'skipped'])]);
    });

    it('refuses a video outside /workspace', () => {
      given
        .when(finishRun({ video: '/tmp/run.mp4' }))
        .thenThrows(ErrorCode.ValidationFailed, /video must be a file under \/workspace/);
    });
  });

  describe.each([
    ['finished', [...planned, runFinished('passed', ['skipped', 'skipped', 'skipped'])], 'passed'],
    ['skipped', [verificationOpened(), runSkipped()], 'skipped'],
  ])('%s', (_state, history, status) => {
    const given = spec.given(history);

    it.each([
      ['a plan', planCases()],
      ['a skip', skipRun()],
      ['a start', startCase(1)],
      ['an end', endCase(1, 'passed')],
      ['a finish', finishRun()],
    ])('takes nothing more: %s is refused', (_case, command) => {
      given
        .when(command)
        .thenThrows(
          ErrorCode.InvalidState,
          `verification run r1 is already closed (${status}); open a new one with verify`,
        );
    });
  });
});

describe('verificationStream', () => {
  it('is verification-<runId>, refusing a run id that cannot name a stream', () => {
    expect(verificationStream('3f2a')).toBe('verification-3f2a');
    expect(() => verificationStream(' x')).toThrow(/runId must not start or end with whitespace/);
  });
});
