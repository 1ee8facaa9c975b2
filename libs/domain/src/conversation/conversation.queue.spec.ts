import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import {
  AGENT,
  BRIEFING,
  conversationStarted,
  decideAll,
  dropPrompt,
  editPrompt,
  out,
  promptDropped,
  promptEdited,
  promptQueued,
  QUEUED,
  record,
  RUNNING,
  startNext,
  stateAfter,
  submit,
  turnFinished,
  turnStarted,
} from '../../test/conversation-fixtures';
import { AT, PERSON } from '../../test/session-fixtures';
import type { ConversationEvent, ConversationState } from '.';
import { conversationDecider } from './conversation.decider';

const spec = DeciderSpecification.for(conversationDecider);
const OPUS = 'claude-opus-4';

function queueOf(events: readonly ConversationEvent[]): [string, string][] {
  const state: ConversationState = stateAfter(events);
  if (state.status === 'absent') throw new Error('no conversation');
  return state.queue.map((q) => [q.promptId, q.text]);
}

function queuedIds(count: number): ConversationEvent[] {
  return Array.from({ length: count }, (_, i) => promptQueued(`q${i}`));
}

describe('conversation queue', () => {
  describe('with a queue (turn 1 runs, p2 then p3 wait)', () => {
    const given = spec.given(QUEUED);

    it('adds a prompt at the end', () => {
      given.when(submit('p4')).then([promptQueued('p4')]);
      expect(queueOf([...QUEUED, promptQueued('p4')]).map(([id]) => id)).toEqual([
        'p2',
        'p3',
        'p4',
      ]);
    });

    it('refuses a prompt id that already waits', () => {
      given
        .when(submit('p2', { text: 'again' }))
        .thenThrows(ErrorCode.AlreadyExists, /^prompt p2 is already queued$/);
    });

    it('takes the 100th prompt and refuses the 101st, saying what to do', () => {
      spec
        .given([...RUNNING, ...queuedIds(99)])
        .when(submit('p'))
        .then([promptQueued('p')]);
      spec
        .given([...RUNNING, ...queuedIds(100)])
        .when(submit('p'))
        .thenThrows(
          ErrorCode.LimitReached,
          /^100 prompts already wait in the queue; drop one or wait for the turns to run$/,
        );
    });

    it('has nothing to start while turn 1 runs', () => {
      given.when(startNext()).thenNothing();
    });

    it('still queues behind waiting prompts once the turn has ended (no overtaking)', () => {
      spec
        .given([...QUEUED, turnFinished(1, 2)])
        .when(submit('p4'))
        .then([promptQueued('p4')]);
    });

    it('edits a waiting prompt, keeping its place and the previous text', () => {
      given
        .when(editPrompt('p2', 'do p2\nbut better'))
        .then([promptEdited('p2', 'do p2\nbut better', 'do p2')]);
      expect(queueOf([...QUEUED, promptEdited('p2', 'v2', 'do p2')])).toEqual([
        ['p2', 'v2'],
        ['p3', 'do p3'],
      ]);
    });

    it('ignores an edit to the text the prompt already has', () => {
      given.when(editPrompt('p3', 'do p3')).thenNothing();
    });

    it.each([
      ['an empty text', ' ', /^text must not be empty$/],
      ['a NUL', 'a\0', /without NUL characters/],
      ['a text too long', 'x'.repeat(262_145), /at most 262144 characters/],
    ])('refuses an edit to %s', (_case, text, why) => {
      given.when(editPrompt('p2', text)).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it.each([
      ['the running prompt', 'p1'],
      ['an unknown prompt', 'p9'],
    ])('cannot edit or drop %s: it is not in the queue', (_case, promptId) => {
      const why = `prompt ${promptId} is not in the queue: it has been sent already, was dropped, or never existed`;
      given.when(editPrompt(promptId, 'new')).thenThrows(ErrorCode.NotFound, why);
      given.when(dropPrompt(promptId)).thenThrows(ErrorCode.NotFound, why);
    });

    it('drops a waiting prompt with the text it had, leaving the rest in order', () => {
      given.when(dropPrompt('p2')).then([promptDropped('p2')]);
      const edited = [...QUEUED, promptEdited('p2', 'v2', 'do p2')];
      spec
        .given(edited)
        .when(dropPrompt('p2'))
        .then([promptDropped('p2', 'v2')]);
      expect(queueOf([...QUEUED, promptQueued('p4'), promptDropped('p3')])).toEqual([
        ['p2', 'do p2'],
        ['p4', 'do p4'],
      ]);
    });

    it('cannot drop or edit a prompt twice after it was dropped', () => {
      const dropped = spec.given([...QUEUED, promptDropped('p2')]);
      dropped.when(dropPrompt('p2')).thenThrows(ErrorCode.NotFound, /was dropped/);
      dropped.when(editPrompt('p2', 'x')).thenThrows(ErrorCode.NotFound, /was dropped/);
    });

    it('takes a dropped id again, at the end of the queue', () => {
      spec
        .given([...QUEUED, promptDropped('p2')])
        .when(submit('p2'))
        .then([promptQueued('p2')]);
    });
  });

  describe('with a queue, idle (turn 1 ended)', () => {
    it('starts the oldest prompt with its own text, model and sender, without a briefing', () => {
      const p2 = { text: 'one\ntwo', model: OPUS, from: AGENT };
      const history = [...RUNNING, promptQueued('p2', p2), promptQueued('p3'), turnFinished(1, 2)];
      spec
        .given(history)
        .when(startNext(BRIEFING))
        .then([turnStarted(2, 3, 'p2', p2)]);
    });

    it('starts the edited text, or the next one after a drop', () => {
      const ended = [...QUEUED, turnFinished(1, 2)];
      spec
        .given([...ended, promptEdited('p2', 'v2', 'do p2')])
        .when(startNext())
        .then([turnStarted(2, 3, 'p2', { text: 'v2' })]);
      spec
        .given([...ended, promptDropped('p2')])
        .when(startNext())
        .then([turnStarted(2, 3, 'p3')]);
    });

    it('opens turn 1 with the briefing StartNextTurn brings', () => {
      spec
        .given([conversationStarted(), promptQueued('p1')])
        .when(startNext(BRIEFING))
        .then([turnStarted(1, 1, 'p1', { briefing: BRIEFING })]);
    });
  });

  describe('a queue played out', () => {
    it('runs the prompts in order, each on its own model and then the last one given', () => {
      const events = decideAll(RUNNING, [
        submit('p2', { model: OPUS, from: AGENT }),
        submit('p3'),
        record(1, 0, [out.finished()]),
        startNext(BRIEFING),
        startNext(),
      ]);
      expect(events).toEqual([
        promptQueued('p2', { model: OPUS, from: AGENT }),
        promptQueued('p3'),
        turnFinished(1, 2),
        turnStarted(2, 3, 'p2', { model: OPUS, from: AGENT }),
      ]);
      const state = stateAfter([...RUNNING, ...events]);
      expect(state).toEqual({
        status: 'running',
        conversationId: 'c1',
        owner: { kind: 'session', sessionId: 's1' },
        harness: 'claude-code',
        model: OPUS,
        turn: 2,
        seq: 3,
        outputs: 0,
        queue: [{ promptId: 'p3', text: 'do p3', model: null, from: PERSON, hop: 0, at: AT }],
        harnessSessionId: null,
        running: { from: AGENT, hop: 0 },
      });
      const next = decideAll(
        [...RUNNING, ...events],
        [record(2, 0, [out.finished()]), startNext()],
      );
      expect(next).toEqual([turnFinished(2, 4), turnStarted(3, 5, 'p3', { model: OPUS })]);
    });
  });
});
