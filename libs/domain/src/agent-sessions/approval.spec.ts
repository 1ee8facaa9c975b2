import { ErrorCode, fold, type Actor } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta, PERSON } from '../../test/session-fixtures';
import {
  approvalDecider,
  approvalStream,
  isApprovalEvent,
  statusAt,
  type AnswerApproval,
  type ApprovalAnswered,
  type ApprovalEvent,
  type ApprovalExpired,
  type ApprovalOutcomeRecorded,
  type ApprovalRequested,
  type ExpireApproval,
  type RecordApprovalOutcome,
  type RequestApproval,
} from './approval';

const spec = DeciderSpecification.for(approvalDecider);
const AGENT: Actor = { kind: 'agent', sessionId: 's1' };
/** AT + APPROVAL_TTL_MS (10 minutes). */
const EXPIRES = '2026-01-02T03:14:05.000Z';
const BEFORE = '2026-01-02T03:10:00.000Z';
const JUST_BEFORE = '2026-01-02T03:14:04.999Z';
const AFTER = '2026-01-02T03:20:00.000Z';
const SUMMARY = 'Create the session “Backend tests”';
const PAYLOAD = { title: 'Backend tests', provider: 'anthropic' };
const CREATED = { sessionId: 's2', title: 'Backend tests' };

function request(data: Partial<RequestApproval['data']> = {}): RequestApproval {
  return {
    type: 'RequestApproval',
    data: {
      approvalId: 'a1',
      kind: 'session_create',
      sessionId: 's1',
      summary: SUMMARY,
      payload: PAYLOAD,
      expiresAt: EXPIRES,
      ...data,
    },
    metadata: meta({ commandId: 'c1', actor: AGENT }),
  };
}

const requested: ApprovalRequested = {
  type: 'ApprovalRequested',
  data: {
    approvalId: 'a1',
    kind: 'session_create',
    sessionId: 's1',
    summary: SUMMARY,
    payload: PAYLOAD,
    expiresAt: EXPIRES,
    at: AT,
  },
};

function answer(allow: boolean, at = BEFORE): AnswerApproval {
  return {
    type: 'AnswerApproval',
    data: { approvalId: 'a1', allow },
    metadata: meta({ commandId: 'c2', at, actor: PERSON }),
  };
}

function answered(allowed: boolean, at = BEFORE): ApprovalAnswered {
  return {
    type: 'ApprovalAnswered',
    data: { approvalId: 'a1', sessionId: 's1', allowed, by: PERSON, at },
  };
}

function expire(at = AFTER): ExpireApproval {
  return {
    type: 'ExpireApproval',
    data: { approvalId: 'a1' },
    metadata: meta({ commandId: 'c3', at, actor: { kind: 'system', id: 'expiry' } }),
  };
}

function expired(at = AFTER): ApprovalExpired {
  return { type: 'ApprovalExpired', data: { approvalId: 'a1', sessionId: 's1', at } };
}

type Outcome = Pick<RecordApprovalOutcome['data'], 'result' | 'error'>;
const succeeded: Outcome = { result: CREATED, error: null };

function record(outcome: Outcome = succeeded, at = BEFORE): RecordApprovalOutcome {
  return {
    type: 'RecordApprovalOutcome',
    data: { approvalId: 'a1', ...outcome },
    metadata: meta({ commandId: 'c4', at, actor: AGENT }),
  };
}

function recorded(outcome: Outcome = succeeded, at = BEFORE): ApprovalOutcomeRecorded {
  return {
    type: 'ApprovalOutcomeRecorded',
    data: { approvalId: 'a1', sessionId: 's1', ...outcome, at },
  };
}

const status = (history: readonly ApprovalEvent[], at: string) =>
  statusAt(fold(approvalDecider, history), at);

describe('an approval', () => {
  describe('not requested', () => {
    it('records the request, with its summary trimmed and its deadline', () => {
      spec
        .given([])
        .when(request({ summary: `  ${SUMMARY} ` }))
        .then([requested]);
    });

    it('refuses a request without a summary or with a malformed id, saying why', () => {
      spec
        .given([])
        .when(request({ summary: '   ' }))
        .thenThrows(ErrorCode.ValidationFailed, /summary must not be empty/);
      spec
        .given([])
        .when(request({ summary: 'x'.repeat(501) }))
        .thenThrows(ErrorCode.ValidationFailed, /summary must be at most 500 characters/);
      spec
        .given([])
        .when(request({ approvalId: 'a1 ' }))
        .thenThrows(ErrorCode.ValidationFailed, /approvalId must not start or end with whitespace/);
    });

    it('cannot be answered, expired or given an outcome', () => {
      spec
        .given([])
        .when(answer(true))
        .thenThrows(ErrorCode.NotFound, 'approval a1 does not exist');
      spec.given([]).when(expire()).thenThrows(ErrorCode.NotFound, 'approval a1 does not exist');
      spec.given([]).when(record()).thenThrows(ErrorCode.NotFound, 'approval a1 does not exist');
    });

    it('is absent', () => {
      expect(status([], AT)).toBe('absent');
      expect(status([], AFTER)).toBe('absent');
    });
  });

  describe('pending, before its deadline', () => {
    const history = [requested];

    it('is pending, up to the last moment before the deadline', () => {
      expect(status(history, BEFORE)).toBe('pending');
      expect(status(history, JUST_BEFORE)).toBe('pending');
    });

    it('ignores a second request for the same approval', () => {
      spec
        .given(history)
        .when(request({ summary: 'Something else' }))
        .thenNothing();
    });

    it('is allowed by a person', () => {
      spec
        .given(history)
        .when(answer(true))
        .then([answered(true)]);
    });

    it('is never answered by an agent, not even the one that asked', () => {
      const byAgent = answer(true);
      byAgent.metadata.actor = { kind: 'agent', sessionId: 's1' };
      spec
        .given(history)
        .when(byAgent)
        .thenThrows(ErrorCode.Forbidden, /only a person answers approval a1/);
    });

    it('is denied by a person', () => {
      spec
        .given(history)
        .when(answer(false))
        .then([answered(false)]);
    });

    it('is denied with the reason a person gave, trimmed; a blank reason is none', () => {
      const deny = answer(false);
      spec
        .given(history)
        .when({ ...deny, data: { ...deny.data, reason: '  not on a Friday ' } })
        .then([
          { ...answered(false), data: { ...answered(false).data, reason: 'not on a Friday' } },
        ]);
      spec
        .given(history)
        .when({ ...deny, data: { ...deny.data, reason: '   ' } })
        .then([answered(false)]);
    });

    it('refuses a reason that is not one line of at most 500 characters', () => {
      const deny = answer(false);
      spec
        .given(history)
        .when({ ...deny, data: { ...deny.data, reason: 'x'.repeat(501) } })
        .thenThrows(ErrorCode.ValidationFailed, /reason must be at most 500 characters/);
      spec
        .given(history)
        .when({ ...deny, data: { ...deny.data, reason: 42 as never } })
        .thenThrows(ErrorCode.ValidationFailed, /reason must be a string/);
    });

    it('can still be answered at the last moment', () => {
      spec
        .given(history)
        .when(answer(true, JUST_BEFORE))
        .then([answered(true, JUST_BEFORE)]);
    });

    it('refuses an answer that is not true or false rather than take it as a no', () => {
      spec
        .given(history)
        .when({ ...answer(true), data: { approvalId: 'a1', allow: 'yes' as never } })
        .thenThrows(ErrorCode.ValidationFailed, /allow must be true or false \(got "yes"\)/);
    });

    it('does not expire yet', () => {
      spec.given(history).when(expire(JUST_BEFORE)).thenNothing();
    });

    it('refuses an outcome, since nobody allowed it', () => {
      spec
        .given(history)
        .when(record())
        .thenThrows(ErrorCode.InvalidState, 'approval a1 is pending, not allowed');
    });
  });

  describe('pending past its deadline, nobody having answered (no ApprovalExpired yet)', () => {
    const history = [requested];

    it('is expired from the deadline on, without any event saying so', () => {
      expect(status(history, EXPIRES)).toBe('expired');
      expect(status(history, AFTER)).toBe('expired');
    });

    it('refuses an answer either way: it counts as denied', () => {
      const why = `approval a1 expired at ${EXPIRES}, unanswered, and counts as denied`;
      spec.given(history).when(answer(true, AFTER)).thenThrows(ErrorCode.InvalidState, why);
      spec.given(history).when(answer(false, AFTER)).thenThrows(ErrorCode.InvalidState, why);
      spec.given(history).when(answer(true, EXPIRES)).thenThrows(ErrorCode.InvalidState, why);
    });

    it('records that it expired', () => {
      spec
        .given(history)
        .when(expire(AFTER))
        .then([expired(AFTER)]);
    });

    it('refuses an outcome, naming it expired', () => {
      spec
        .given(history)
        .when(record(succeeded, AFTER))
        .thenThrows(ErrorCode.InvalidState, 'approval a1 is expired, not allowed');
    });
  });

  describe('expired', () => {
    const history = [requested, expired()];

    it('is expired in its state, not only by the clock', () => {
      expect(fold(approvalDecider, history).status).toBe('expired');
      expect(status(history, AFTER)).toBe('expired');
    });

    it('refuses an answer', () => {
      spec
        .given(history)
        .when(answer(true, AFTER))
        .thenThrows(ErrorCode.InvalidState, 'approval a1 was already expired');
    });

    it('expires only once, and ignores a second request', () => {
      spec.given(history).when(expire()).thenNothing();
      spec.given(history).when(request()).thenNothing();
    });

    it('refuses an outcome', () => {
      spec
        .given(history)
        .when(record(succeeded, AFTER))
        .thenThrows(ErrorCode.InvalidState, 'approval a1 is expired, not allowed');
    });
  });

  describe('allowed', () => {
    const history = [requested, answered(true)];

    it('stays allowed after the deadline', () => {
      expect(status(history, AFTER)).toBe('allowed');
    });

    it('refuses a second answer, before and after the deadline', () => {
      const why = 'approval a1 was already allowed';
      spec.given(history).when(answer(false)).thenThrows(ErrorCode.InvalidState, why);
      spec.given(history).when(answer(true, AFTER)).thenThrows(ErrorCode.InvalidState, why);
    });

    it('does not expire', () => {
      spec.given(history).when(expire(AFTER)).thenNothing();
    });

    it('records what the allowed action returned', () => {
      spec.given(history).when(record()).then([recorded()]);
    });

    it('records why the allowed action failed', () => {
      const failed: Outcome = { result: null, error: 'the box could not start' };
      spec
        .given(history)
        .when(record(failed, AFTER))
        .then([recorded(failed, AFTER)]);
    });
  });

  describe('allowed, with its outcome recorded', () => {
    const history = [requested, answered(true), recorded()];

    it('records the outcome only once', () => {
      spec
        .given(history)
        .when(record({ result: null, error: 'again' }))
        .thenNothing();
    });

    it('is still allowed and refuses an answer', () => {
      expect(status(history, AFTER)).toBe('allowed');
      spec
        .given(history)
        .when(answer(false))
        .thenThrows(ErrorCode.InvalidState, 'approval a1 was already allowed');
    });
  });

  describe('denied', () => {
    const history = [requested, answered(false)];

    it('stays denied after the deadline, and does not expire', () => {
      expect(status(history, AFTER)).toBe('denied');
      spec.given(history).when(expire(AFTER)).thenNothing();
    });

    it('refuses a second answer', () => {
      spec
        .given(history)
        .when(answer(true))
        .thenThrows(ErrorCode.InvalidState, 'approval a1 was already denied');
    });

    it('refuses an outcome', () => {
      spec
        .given(history)
        .when(record())
        .thenThrows(ErrorCode.InvalidState, 'approval a1 is denied, not allowed');
    });
  });

  it('lives in the approval-<approvalId> stream, and tells its events apart', () => {
    expect(approvalStream('a1')).toBe('approval-a1');
    expect(() => approvalStream('')).toThrow(/approvalId must not be empty/);
    for (const event of [requested, answered(true), expired(), recorded()]) {
      expect(isApprovalEvent(event)).toBe(true);
    }
    expect(isApprovalEvent({ type: 'PlaceTaken' })).toBe(false);
  });
});
