import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { meta, sessionCreated } from '../../test/session-fixtures';
import { terminalExited, terminalOpened } from '../../test/session-activity-fixtures';
import type { RecordTerminalTyped, TerminalTypedInto } from './index';
import { sessionDecider } from './session.decider';

const spec = DeciderSpecification.for(sessionDecider);
const AT = '2026-01-02T05:00:00.000Z';
const alice = { kind: 'person', id: 'alice' } as const;

const typed = (terminalId = 't1', actor: RecordTerminalTyped['metadata']['actor'] = alice) =>
  ({
    type: 'RecordTerminalTyped',
    data: { sessionId: 's1', terminalId },
    metadata: meta({ at: AT, actor }),
  }) satisfies RecordTerminalTyped;
const typedInto: TerminalTypedInto = {
  type: 'TerminalTypedInto',
  data: { sessionId: 's1', terminalId: 't1', by: alice, at: AT },
};

describe('a person typing into a Terminal', () => {
  describe('a session with a running Terminal t1', () => {
    const given = spec.given([sessionCreated(), terminalOpened('s1', 't1', null, 'person')]);

    it('records who typed and when, and nothing of what they typed', () => {
      given.when(typed()).then([typedInto]);
    });

    it('refuses a Terminal the session does not have', () => {
      given.when(typed('t9')).thenThrows(ErrorCode.NotFound, 'session s1 has no Terminal t9');
    });

    it('refuses an agent: only a person types into a Terminal', () => {
      given
        .when(typed('t1', { kind: 'agent', sessionId: 's1' }))
        .thenThrows(ErrorCode.Forbidden, /only a signed-in person/);
    });

    it('refuses a malformed terminal id, naming the field', () => {
      given.when(typed('')).thenThrows(ErrorCode.ValidationFailed, /terminalId/);
    });
  });

  it('refuses a Terminal that has exited, saying so', () => {
    spec
      .given([sessionCreated(), terminalOpened('s1', 't1'), terminalExited('s1', 't1', 0)])
      .when(typed())
      .thenThrows(ErrorCode.InvalidState, 'Terminal t1 has exited: it takes no more input');
  });

  it('refuses a session that does not exist', () => {
    spec.given([]).when(typed()).thenThrows(ErrorCode.NotFound, /s1/);
  });
});
