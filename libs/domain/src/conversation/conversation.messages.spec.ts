import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import {
  AGENT,
  decideAll,
  IDLE,
  promptQueued,
  RUNNING,
  stateAfter,
  submit,
  turnStarted,
  record,
  out,
} from '../../test/conversation-fixtures';
import { conversationDecider, MAX_HOPS } from './conversation.decider';

const spec = DeciderSpecification.for(conversationDecider);
/** Session s2's agent messages this conversation (owned by session s1). */
const fromS2 = (promptId: string, hop = 1) => submit(promptId, { from: AGENT, hop });
const OWN_AGENT = { kind: 'agent' as const, sessionId: 's1' };

describe('prompts from other sessions’ agents', () => {
  it('start a turn that carries the sender and its hop', () => {
    spec
      .given(IDLE)
      .when(fromS2('m1', 2))
      .then([turnStarted(2, 3, 'm1', { from: AGENT, hop: 2 })]);
  });

  it('refuse a second message from the same sender while the first runs or waits', () => {
    const why = /still in flight; wait for its reply \(session_wait\) first/;
    const running = [...IDLE, turnStarted(2, 3, 'm1', { from: AGENT, hop: 1 })];
    spec.given(running).when(fromS2('m2')).thenThrows(ErrorCode.LimitReached, why);
    const waiting = [...RUNNING, promptQueued('m1', { from: AGENT, hop: 1 })];
    spec.given(waiting).when(fromS2('m2')).thenThrows(ErrorCode.LimitReached, why);
  });

  it('accept the next message once the turn that ran the first has finished', () => {
    const events = decideAll(IDLE, [fromS2('m1'), record(2, 0, [out.finished()]), fromS2('m2')]);
    expect(events.filter((e) => e.type === 'TurnStarted').map((e) => e.data.promptId)).toEqual([
      'm1',
      'm2',
    ]);
  });

  it('are not limited for the session’s own agent (queue_add) or a person', () => {
    const own = submit('q1', { from: OWN_AGENT, queue: true });
    const state = stateAfter([...RUNNING, promptQueued('q0', { from: OWN_AGENT })]);
    expect(() => conversationDecider.decide(own, state)).not.toThrow();
  });

  it(`stop a chain after ${MAX_HOPS} hops: hop ${MAX_HOPS} goes, hop ${MAX_HOPS + 1} is refused`, () => {
    spec
      .given(IDLE)
      .when(fromS2('m4', MAX_HOPS))
      .then([turnStarted(2, 3, 'm4', { from: AGENT, hop: 4 })]);
    spec
      .given(IDLE)
      .when(fromS2('m5', MAX_HOPS + 1))
      .thenThrows(ErrorCode.LimitReached, /stops after 4 hops; this message would be hop 5/);
  });
});
