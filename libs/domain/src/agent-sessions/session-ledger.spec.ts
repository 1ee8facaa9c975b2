import { ErrorCode, fold, isDomainError, type Actor } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import {
  CHILDREN_MAX,
  childrenLedger,
  GLOBAL_LEDGER,
  isLedgerEvent,
  ledgerDecider,
  type FreePlace,
  type LedgerCommand,
  type LedgerEvent,
  type PlaceFreed,
  type PlaceTaken,
  type TakePlace,
} from './session-ledger';

const spec = DeciderSpecification.for(ledgerDecider);
const CREATOR: Actor = { kind: 'agent', sessionId: 'parent' };
const CHILDREN = childrenLedger('parent');
const GLOBAL_CAP = 10;

interface Place {
  ledger?: string;
  cap?: number;
  title?: string;
}

const titleOf = (sessionId: string) => `Child ${sessionId}`;

function take(sessionId: string, place: Place = {}): TakePlace {
  const { ledger = CHILDREN, cap = CHILDREN_MAX, title = titleOf(sessionId) } = place;
  return {
    type: 'TakePlace',
    data: { ledger, sessionId, cap, title },
    metadata: meta({ commandId: `take-${sessionId}`, actor: CREATOR }),
  };
}

function taken(sessionId: string, alive: number, place: Place = {}): PlaceTaken {
  const { ledger = CHILDREN, cap = CHILDREN_MAX, title = titleOf(sessionId) } = place;
  return { type: 'PlaceTaken', data: { ledger, sessionId, title, alive, cap, at: AT } };
}

function free(sessionId: string, ledger = CHILDREN): FreePlace {
  return {
    type: 'FreePlace',
    data: { ledger, sessionId, reason: 'stopped' },
    metadata: meta({ commandId: `free-${sessionId}`, actor: CREATOR }),
  };
}

function freed(sessionId: string, alive: number, ledger = CHILDREN): PlaceFreed {
  return { type: 'PlaceFreed', data: { ledger, sessionId, reason: 'stopped', alive, at: AT } };
}

/** `count` places taken on `ledger`, for sessions s1…s<count>. */
function filled(count: number, place: Place = {}): PlaceTaken[] {
  return Array.from({ length: count }, (_, i) => taken(`s${i + 1}`, i + 1, place));
}

describe('a session ledger', () => {
  describe('with no place taken', () => {
    it('takes a place, recording the count of alive sessions and the cap', () => {
      spec
        .given([])
        .when(take('s1'))
        .then([taken('s1', 1)]);
    });

    it('frees nothing for a session that holds no place', () => {
      spec.given([]).when(free('s1')).thenNothing();
    });

    it('refuses every session when the cap is 0, saying the global cap is reached', () => {
      spec
        .given([])
        .when(take('s1', { ledger: GLOBAL_LEDGER, cap: 0 }))
        .thenThrows(ErrorCode.LimitReached, /global cap of 0 agent-created sessions is reached/);
    });

    it('refuses a cap that is not a whole number from 0 to 1000, and an id with spaces', () => {
      spec
        .given([])
        .when(take('s1', { cap: 2.5 }))
        .thenThrows(ErrorCode.ValidationFailed, /cap must be a whole number \(got 2.5\)/);
      spec
        .given([])
        .when(take('s1', { cap: -1 }))
        .thenThrows(ErrorCode.ValidationFailed, /cap must be between 0 and 1000 \(got -1\)/);
      spec
        .given([])
        .when(take(' s1'))
        .thenThrows(ErrorCode.ValidationFailed, /sessionId must not start or end with whitespace/);
      spec
        .given([])
        .when(free(''))
        .thenThrows(ErrorCode.ValidationFailed, /sessionId must not be empty/);
    });
  });

  describe('of a creator with two alive children', () => {
    const history = filled(2);

    it('takes the third place', () => {
      spec
        .given(history)
        .when(take('s3'))
        .then([taken('s3', 3)]);
    });

    it('frees a place, counting one alive left', () => {
      spec
        .given(history)
        .when(free('s1'))
        .then([freed('s1', 1)]);
    });
  });

  describe('of a creator at its cap (3 alive children)', () => {
    const history = filled(CHILDREN_MAX);

    it('refuses a fourth, naming the alive sessions so the agent can stop one', () => {
      spec
        .given(history)
        .when(take('s4'))
        .thenThrows(
          ErrorCode.LimitReached,
          'this agent already has 3 alive sessions it created (“Child s1”, “Child s2”, “Child s3”), the most there may be; session_stop one first',
        );
    });

    it('takes nothing for a session that already holds a place', () => {
      spec.given(history).when(take('s2')).thenNothing();
    });

    it('frees a place', () => {
      spec
        .given(history)
        .when(free('s2'))
        .then([freed('s2', 2)]);
    });
  });

  describe('of a creator at its cap again after one place was freed', () => {
    const history = [...filled(CHILDREN_MAX), freed('s2', 2)];

    it('takes the freed place for a new session', () => {
      spec
        .given(history)
        .when(take('s4'))
        .then([taken('s4', 3)]);
    });

    it('names only the sessions still alive when it refuses', () => {
      spec
        .given([...history, taken('s4', 3)])
        .when(take('s5'))
        .thenThrows(ErrorCode.LimitReached, /\(“Child s1”, “Child s3”, “Child s4”\)/);
    });

    it('frees nothing for the session whose place was freed', () => {
      spec.given(history).when(free('s2')).thenNothing();
    });
  });

  describe('global, at its cap', () => {
    const place = { ledger: GLOBAL_LEDGER, cap: GLOBAL_CAP };
    const history = filled(GLOBAL_CAP, place);

    it('refuses one more, naming the cap and where it is set', () => {
      spec
        .given(history)
        .when(take('s11', place))
        .thenThrows(
          ErrorCode.LimitReached,
          'the global cap of 10 agent-created sessions is reached: 10 are alive (Global settings → MCP & connectors → sessionboxer); stop one first',
        );
    });

    it('refuses with the true count when the cap was lowered below it', () => {
      spec
        .given(history)
        .when(take('s11', { ...place, cap: 4 }))
        .thenThrows(
          ErrorCode.LimitReached,
          /global cap of 4 agent-created sessions .*: 10 are alive/,
        );
    });

    it('takes a place once the cap is raised', () => {
      spec
        .given(history)
        .when(take('s11', { ...place, cap: 11 }))
        .then([taken('s11', 11, { ...place, cap: 11 })]);
    });
  });

  it('names a creator ledger children-<creator>, and tells its events apart', () => {
    expect(CHILDREN).toBe('children-parent');
    expect(GLOBAL_LEDGER).toBe('agent-sessions-global');
    expect(() => childrenLedger('par ent ')).toThrow(/sessionId must not start or end/);
    expect(isLedgerEvent(taken('s1', 1))).toBe(true);
    expect(isLedgerEvent(freed('s1', 0))).toBe(true);
    expect(isLedgerEvent({ type: 'SessionCreated' })).toBe(false);
  });
});

/**
 * Decides each command on the state the previous decisions left, as the pipeline does when it
 * retries a command whose append lost the race on the stream's revision.
 */
function decideInTurn(history: readonly LedgerEvent[], commands: readonly LedgerCommand[]) {
  let state = fold(ledgerDecider, history);
  const accepted: LedgerEvent[] = [];
  let refused = 0;
  for (const command of commands) {
    try {
      const events = ledgerDecider.decide(command, state);
      state = fold({ ...ledgerDecider, initialState: state }, events);
      accepted.push(...events);
    } catch (error) {
      if (!isDomainError(error) || error.code !== ErrorCode.LimitReached) throw error;
      refused += 1;
    }
  }
  return { state, accepted, refused };
}

describe('50 sessions racing for places', () => {
  const cases = [
    { name: 'a creator ledger', place: {}, cap: CHILDREN_MAX },
    { name: 'the global ledger', place: { ledger: GLOBAL_LEDGER, cap: GLOBAL_CAP }, cap: 10 },
  ];
  const racers = (from: number, place: Place) =>
    Array.from({ length: 50 }, (_, i) => take(`r${from + i}`, place));

  it.each(cases)('let exactly the cap through on $name', ({ place, cap }) => {
    const { state, accepted, refused } = decideInTurn([], racers(0, place));
    expect(accepted.map((e) => e.data.sessionId)).toEqual(
      Array.from({ length: cap }, (_, i) => `r${i}`),
    );
    expect(accepted.map((e) => e.type === 'PlaceTaken' && e.data.alive)).toEqual(
      Array.from({ length: cap }, (_, i) => i + 1),
    );
    expect(refused).toBe(50 - cap);
    expect(Object.keys(state.alive)).toHaveLength(cap);
  });

  it.each(cases)('let exactly one more in on $name once one place is freed', ({ place }) => {
    const first = decideInTurn([], racers(0, place));
    const ledger = place.ledger ?? CHILDREN;
    const history = [
      ...first.accepted,
      ...decideInTurn(first.accepted, [free('r1', ledger)]).accepted,
    ];
    const second = decideInTurn(history, racers(50, place));
    expect(second.accepted.map((e) => e.data.sessionId)).toEqual(['r50']);
    expect(second.refused).toBe(49);
  });
});
