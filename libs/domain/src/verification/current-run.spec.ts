import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import {
  currentRunDecider,
  sessionVerificationsStream,
  type CurrentVerificationRunSet,
  type SetCurrentVerificationRun,
} from './current-run';

const spec = DeciderSpecification.for(currentRunDecider);

function setCurrent(runId: string, replacing: string | null): SetCurrentVerificationRun {
  const data = { sessionId: 's1', runId, replacing };
  return { type: 'SetCurrentVerificationRun', data, metadata: meta() };
}

function currentSet(runId: string, previousRunId: string | null): CurrentVerificationRunSet {
  const data = { sessionId: 's1', runId, previousRunId, at: AT };
  return { type: 'CurrentVerificationRunSet', data };
}

describe("a session's current verification run", () => {
  describe('none yet', () => {
    const given = spec.given([]);

    it('becomes the first run opened', () => {
      given.when(setCurrent('r1', null)).then([currentSet('r1', null)]);
    });

    it('refuses a command that expected another current run', () => {
      given
        .when(setCurrent('r1', 'r0'))
        .thenThrows(ErrorCode.Conflict, /run \(none\) became this session's current run/);
    });
  });

  describe('r1 current', () => {
    const given = spec.given([currentSet('r1', null)]);

    it('moves to a new run that replaces r1', () => {
      given.when(setCurrent('r2', 'r1')).then([currentSet('r2', 'r1')]);
    });

    it('is told when two opens race: the one that expected no run loses', () => {
      given
        .when(setCurrent('r2', null))
        .thenThrows(
          ErrorCode.Conflict,
          /verification run r1 became this session's current run while run r2/,
        );
    });

    it('changes nothing when r1 is set again (a resent open)', () => {
      given.when(setCurrent('r1', null)).thenNothing();
    });
  });

  describe('r2 after r1', () => {
    it('never makes an old run current again', () => {
      spec
        .given([currentSet('r1', null), currentSet('r2', 'r1')])
        .when(setCurrent('r1', 'r2'))
        .thenThrows(ErrorCode.AlreadyExists, /run r1 was this session's run before/);
    });
  });
});

describe('sessionVerificationsStream', () => {
  it('is verifications-<sessionId>', () => {
    expect(sessionVerificationsStream('s1')).toBe('verifications-s1');
  });
});
