import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import {
  AGENT,
  BRIEFING,
  conversationStarted,
  dropPrompt,
  editPrompt,
  failTurn,
  IDLE,
  interrupt,
  agentErrored,
  out,
  promptQueued,
  record,
  RUNNING,
  startNext,
  stateAfter,
  submit,
  turnEnded,
  turnFinished,
  turnStarted,
} from '../../test/conversation-fixtures';
import { conversationDecider, conversationStream } from './conversation.decider';
import type { HarnessName } from '../limits';

const spec = DeciderSpecification.for(conversationDecider);
const LATER = '2026-01-02T04:00:00.000Z';

describe('conversation decider', () => {
  describe('no conversation', () => {
    const given = spec.given([]);

    it('is started by its first prompt, which opens turn 1 with the briefing', () => {
      given
        .when(submit('p1', { briefing: BRIEFING }))
        .then([conversationStarted(), turnStarted(1, 1, 'p1', { briefing: BRIEFING })]);
    });

    it("keeps the first prompt's model as the conversation's", () => {
      given
        .when(submit('p1', { model: 'claude-opus-4' }))
        .then([
          conversationStarted('claude-opus-4'),
          turnStarted(1, 1, 'p1', { model: 'claude-opus-4' }),
        ]);
    });

    it('queues the first prompt when told to (the owner cannot run a turn now)', () => {
      given
        .when(submit('p1', { queue: true, briefing: BRIEFING }))
        .then([conversationStarted(), promptQueued('p1')]);
    });

    it('keeps a prompt as typed: several lines, spaces around, who sent it', () => {
      const text = '  Fix the tests.\n\nThen open a PR.\n';
      given
        .when(submit('p1', { text, from: AGENT }))
        .then([conversationStarted(), turnStarted(1, 1, 'p1', { text, from: AGENT })]);
    });

    it('takes a prompt of 262,144 characters, counting an emoji once', () => {
      const text = '🚀'.repeat(262_144);
      given
        .when(submit('p1', { text }))
        .then([conversationStarted(), turnStarted(1, 1, 'p1', { text })]);
    });

    it.each([
      ['an empty text', { text: ' \n\t ' }, /^text must not be empty$/],
      [
        'a text too long',
        { text: 'x'.repeat(262_145) },
        /at most 262144 characters \(it has 262145\)/,
      ],
      ['a text with NUL', { text: 'a\0b' }, /text must be valid text without NUL characters/],
      ['a text with half an emoji', { text: 'a\uD83D' }, /without NUL/],
      ['a text that is no string', { text: 42 }, /^text must be a string$/],
      ['a model with spaces', { model: 'claude opus' }, /model must be a model name of letters/],
      ['an empty model', { model: '' }, /model must be a model name/],
      [
        'an unknown harness',
        { harness: 'aider' },
        /harness must be one of claude-code, opencode, scripted \(got "aider"\)/,
      ],
      [
        'an unknown owner',
        { owner: { kind: 'box', boxId: 'b' } },
        /owner must be \{ kind: "session", sessionId \}/,
      ],
      [
        'an owner without id',
        { owner: { kind: 'session', sessionId: '' } },
        /owner.sessionId must not be empty/,
      ],
      [
        'a sandbox owner with spaces',
        { owner: { kind: 'sandbox', sandboxId: ' x' } },
        /owner.sandboxId must not start or end with whitespace/,
      ],
      [
        'a conversation id with spaces',
        { conversationId: 'c1 ' },
        /conversationId must not start or end/,
      ],
      ['an empty prompt id', { promptId: '' }, /promptId must not be empty/],
    ])('refuses %s', (_case, data, why) => {
      const command = submit('p1', data as Parameters<typeof submit>[1]);
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it.each([
      ['StartNextTurn', startNext()],
      ['RecordHarnessOutput', record(1, 0, [out.message('hi')])],
      ['InterruptTurn', interrupt()],
      ['FailTurn', failTurn(1)],
      ['EditQueuedPrompt', editPrompt('p1', 'new')],
      ['DropQueuedPrompt', dropPrompt('p1')],
    ])('refuses %s: there is nothing to act on', (_case, command) => {
      given.when(command).thenThrows(ErrorCode.NotFound, /^conversation c1 does not exist$/);
    });
  });

  describe('idle (turn 1 finished, nothing waits)', () => {
    const given = spec.given(IDLE);

    it('starts turn 2 at once, numbered after the last event, without the briefing', () => {
      given
        .when(submit('p2', { briefing: BRIEFING }, LATER))
        .then([turnStarted(2, 3, 'p2', { at: LATER })]);
    });

    it('refuses a prompt for another harness, saying which one it runs', () => {
      given
        .when(submit('p2', { harness: 'opencode' }))
        .thenThrows(
          ErrorCode.ValidationFailed,
          /^this conversation runs claude-code; a prompt for opencode needs a new conversation$/,
        );
      const unknown = submit('p2', { harness: 'nope' as HarnessName });
      given.when(unknown).thenThrows(ErrorCode.ValidationFailed, /harness must be one of/);
    });

    it('queues a prompt when told to, and StartNextTurn then starts it', () => {
      given.when(submit('p2', { queue: true })).then([promptQueued('p2')]);
      spec
        .given([...IDLE, promptQueued('p2')])
        .when(startNext())
        .then([turnStarted(2, 3, 'p2')]);
    });

    it('has no next turn to start when nothing waits', () => {
      given.when(startNext(BRIEFING)).thenNothing();
    });

    it('has no turn to interrupt', () => {
      given
        .when(interrupt())
        .thenThrows(
          ErrorCode.InvalidState,
          /^no turn is running, so there is nothing to interrupt$/,
        );
    });

    it('leaves a turn that has ended as it ended: FailTurn changes nothing, late output is refused', () => {
      given.when(failTurn(1)).thenNothing();
      given
        .when(record(1, 2, [out.message('late')]))
        .thenThrows(ErrorCode.InvalidState, /turn 1 has ended and none runs/);
    });

    it('runs later turns on the model a prompt last gave', () => {
      const opus = { model: 'claude-opus-4' };
      const history = [conversationStarted(), turnStarted(1, 1, 'p1', opus), turnFinished(1, 2)];
      spec
        .given(history)
        .when(submit('p2'))
        .then([turnStarted(2, 3, 'p2', opus)]);
      spec
        .given(history)
        .when(submit('p2', { model: 'claude-haiku-4' }))
        .then([turnStarted(2, 3, 'p2', { model: 'claude-haiku-4' })]);
    });
  });

  describe('running (turn 1)', () => {
    const given = spec.given(RUNNING);

    it('cannot be started twice: a prompt joins the queue with its model and sender', () => {
      given
        .when(submit('p2', { model: 'claude-opus-4', from: AGENT, briefing: BRIEFING }))
        .then([promptQueued('p2', { model: 'claude-opus-4', from: AGENT })]);
    });

    it('has nothing to start while the turn runs', () => {
      given.when(startNext()).thenNothing();
    });

    it('is interrupted: the turn ends with no usage', () => {
      given.when(interrupt(LATER)).then([turnEnded(1, 2, 'interrupted', LATER)]);
      const after = stateAfter([...RUNNING, turnEnded(1, 2, 'interrupted')]);
      expect(after).toMatchObject({ status: 'idle', turn: 1, seq: 2 });
    });

    it('is failed with an error event, then the turn ends as failed', () => {
      given
        .when(failTurn(1, 'harness_exited', 'claude exited with 137'))
        .then([
          agentErrored(1, 2, 'harness_exited', 'claude exited with 137'),
          turnEnded(1, 3, 'failed'),
        ]);
    });

    it('ignores a FailTurn for a turn that is not the running one', () => {
      given.when(failTurn(2)).thenNothing();
      spec
        .given([...IDLE, turnStarted(2, 3, 'p2')])
        .when(failTurn(1))
        .thenNothing();
    });

    it('cuts a long failure, never refuses it', () => {
      const message = 'x'.repeat(5_000);
      given
        .when(failTurn(1, 'c'.repeat(150), message))
        .then([
          agentErrored(1, 2, `${'c'.repeat(99)}…`, `${'x'.repeat(3_999)}…`),
          turnEnded(1, 3, 'failed'),
        ]);
    });

    it.each([
      ['code', failTurn(1, 7 as unknown as string), /^code must be a string$/],
      ['message', failTurn(1, 'x', null as unknown as string), /^message must be a string$/],
    ])('refuses a failure whose %s is no text, naming that field', (_case, command, why) => {
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it('starts the next prompt at once after an interrupt, numbered on', () => {
      spec
        .given([...RUNNING, turnEnded(1, 2, 'interrupted')])
        .when(submit('p2'))
        .then([turnStarted(2, 3, 'p2')]);
    });
  });
});

describe('conversationStream', () => {
  it('names the stream category-id, so $ce-conversation groups them', () => {
    expect(conversationStream('3f2a-11')).toBe('conversation-3f2a-11');
  });

  it('refuses an empty id', () => {
    expect(() => conversationStream('')).toThrow(/conversationId must not be empty/);
  });
});
