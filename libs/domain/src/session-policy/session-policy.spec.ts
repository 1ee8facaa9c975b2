import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta, PERSON } from '../../test/session-fixtures';
import { sessionPolicyDecider, sessionPolicyStream, type SetSessionPolicy } from './session-policy';

const spec = DeciderSpecification.for(sessionPolicyDecider);
const set = (data: Omit<SetSessionPolicy['data'], 'sessionId'>): SetSessionPolicy => ({
  type: 'SetSessionPolicy',
  data: { sessionId: 's1', ...data },
  metadata: meta({ commandId: 'c1', actor: PERSON }),
});
const none = { agentTools: null, sessionCreation: null };

describe('a session policy', () => {
  describe('never set (follows the global default)', () => {
    it('records a value, keeping the other field as it was', () => {
      spec
        .given([])
        .when(set({ agentTools: 'off' }))
        .then([
          {
            type: 'SessionPolicySet',
            data: {
              sessionId: 's1',
              agentTools: 'off',
              sessionCreation: null,
              previous: none,
              at: AT,
            },
          },
        ]);
    });

    it('refuses an unknown value or field, and an empty change, saying why', () => {
      spec
        .given([])
        .when(set({ agentTools: 'sometimes' as never }))
        .thenThrows(ErrorCode.ValidationFailed, /agentTools must be one of off, session, all/);
      spec
        .given([])
        .when(set({ color: 'red' } as never))
        .thenThrows(ErrorCode.ValidationFailed, /unknown field color/);
      spec
        .given([])
        .when(set({}))
        .thenThrows(ErrorCode.ValidationFailed, /give agentTools or sessionCreation/);
    });

    it('records nothing when nothing changes', () => {
      spec
        .given([])
        .when(set({ agentTools: null }))
        .thenNothing();
    });
  });

  describe('set', () => {
    const history = [
      {
        type: 'SessionPolicySet' as const,
        data: {
          sessionId: 's1',
          agentTools: 'all' as const,
          sessionCreation: 'dont_ask' as const,
          previous: none,
          at: AT,
        },
      },
    ];

    it('goes back to the global default with null', () => {
      spec
        .given(history)
        .when(set({ sessionCreation: null }))
        .then([
          {
            type: 'SessionPolicySet',
            data: {
              sessionId: 's1',
              agentTools: 'all',
              sessionCreation: null,
              previous: { agentTools: 'all', sessionCreation: 'dont_ask' },
              at: AT,
            },
          },
        ]);
    });
  });

  it('lives in the policy-<sessionId> stream', () => {
    expect(sessionPolicyStream('s1')).toBe('policy-s1');
  });
});
