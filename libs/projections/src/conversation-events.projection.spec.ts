import { conversationScript, second, sessionOwner } from '../test/conversation-fixtures';
import { ProjectionSpecification } from '../test/projection-spec';
import { PERSON, recorded } from '../test/recorded-events';
import {
  CONVERSATION_EVENT_PAGE_MAX,
  conversationEventQueries,
  conversationEventsProjection,
  type SpecConversationEvent,
} from './conversation-events.projection';
import type { ReadModelReader } from './store/read-model-store';

const spec = ProjectionSpecification.for(conversationEventsProjection);
const usage = { fiveHour: { used: 0.25 } };
const context = { usedTokens: 1_200, windowTokens: 200_000 };

/** One turn of each spec event, in a conversation whose id is not its session's. */
function everyKind() {
  const c = conversationScript('c1', sessionOwner('s1'));
  return recorded([
    c.started(),
    c.turn(1, 'p1', 'Fix it', 'opus'),
    c.harnessSession(2, 'claude-1'),
    c.message(3, 'Looking'),
    c.toolCall(4, 't1', 'Bash', { command: 'ls' }),
    c.toolResult(5, 't1', 'README.md', true),
    c.error(6, 'rate_limited', 'slow down'),
    c.finished(7, { status: 'failed', input: 10, output: 2, usage, context }),
  ]);
}

const seqs = (events: SpecConversationEvent[]) => events.map((e) => e.seq);

describe('conversation events projection', () => {
  describe('no events', () => {
    it('has an empty first page', () => {
      spec.given([]).thenQuery((r) => conversationEventQueries(r).page('c1'), {
        events: [],
        next_after: null,
      });
    });
  });

  describe('one turn of every kind', () => {
    it('gives each event in the spec’s shape, in order', () => {
      const turn = { turn: 1 };
      spec.given(everyKind()).thenQuery(
        (r) => conversationEventQueries(r).page('c1').events,
        [
          {
            type: 'prompt',
            seq: 1,
            at: second(1),
            ...turn,
            text: 'Fix it',
            model: 'opus',
            promptId: 'p1',
            from: PERSON,
            briefing: 'You are in a box.',
          },
          { type: 'message', seq: 2, at: second(3), ...turn, text: 'Looking' },
          {
            type: 'tool_call',
            seq: 3,
            at: second(4),
            ...turn,
            id: 't1',
            name: 'Bash',
            input: { command: 'ls' },
          },
          {
            type: 'tool_result',
            seq: 4,
            at: second(5),
            ...turn,
            id: 't1',
            output: 'README.md',
            error: true,
          },
          {
            type: 'error',
            seq: 5,
            at: second(6),
            ...turn,
            code: 'rate_limited',
            message: 'slow down',
          },
          {
            type: 'turn_finished',
            seq: 6,
            at: second(7),
            ...turn,
            status: 'failed',
            input_tokens: 10,
            output_tokens: 2,
            usage,
            context,
          },
        ],
      );
    });

    it('keeps one document per event with its id, position and its owner’s session', () => {
      spec.given(everyKind()).thenQuery(
        (r) => {
          const [first] = r.list(conversationEventsProjection, { partition: 'c1', limit: 1 });
          return first.doc;
        },
        {
          id: 'event-2',
          conversationId: 'c1',
          sessionId: 's1',
          position: 2,
          event: expect.objectContaining({ type: 'prompt', seq: 1 }),
        },
      );
    });

    it('gives a sandbox’s conversation’s events no session', () => {
      const c = conversationScript('c1', { kind: 'sandbox', sandboxId: 's1' });
      spec
        .given(recorded([c.started(), c.turn(1, 'p1', 'Hi')]))
        .thenQuery(
          (r) => r.list(conversationEventsProjection, { partition: 'c1' }).map((d) => d.doc),
          [expect.objectContaining({ id: 'event-2', sessionId: null })],
        );
    });
  });

  describe('paging two conversations whose events interleave', () => {
    const a = conversationScript('a', sessionOwner('s1'));
    const b = conversationScript('b', sessionOwner('s1'));
    const events = recorded([
      a.started(),
      b.started(),
      a.turn(1, 'pa', 'A'),
      b.turn(1, 'pb', 'B'),
      b.message(2, 'b2'),
      a.message(2, 'a2'),
      a.message(3, 'a3'),
      b.message(3, 'b3'),
      a.finished(4),
    ]);
    const page =
      (id: string, options: { afterSeq?: number; limit?: number }) => (r: ReadModelReader) => {
        const p = conversationEventQueries(r).page(id, options);
        return { seqs: seqs(p.events), next_after: p.next_after };
      };

    it('pages by seq, each conversation on its own', () => {
      spec.given(events).thenQuery(
        (r) => {
          const q = conversationEventQueries(r);
          const first = q.page('a', { limit: 2 });
          const rest = q.page('a', { afterSeq: first.next_after ?? undefined, limit: 2 });
          return [first, rest].map((p) => ({ seqs: seqs(p.events), next_after: p.next_after }));
        },
        [
          { seqs: [1, 2], next_after: 2 },
          { seqs: [3, 4], next_after: null },
        ],
      );
      spec.given(events).thenQuery(page('b', {}), { seqs: [1, 2, 3], next_after: null });
    });

    it('starts at the first event for no cursor or 0, and gives nothing past the end', () => {
      spec
        .given(events)
        .thenQuery(page('a', { afterSeq: 0 }), { seqs: [1, 2, 3, 4], next_after: null });
      spec.given(events).thenQuery(page('a', { afterSeq: 4 }), { seqs: [], next_after: null });
      spec.given(events).thenQuery(page('a', { afterSeq: 99 }), { seqs: [], next_after: null });
    });

    it('still answers right for a cursor that names no event', () => {
      spec
        .given(events)
        .thenQuery(page('a', { afterSeq: 1.5, limit: 1 }), { seqs: [2], next_after: 2 });
    });
  });

  describe('limits', () => {
    const c = conversationScript('c1', sessionOwner('s1'));
    const start = [c.started(), c.turn(0, 'p1', 'Go')];
    const messages = Array.from({ length: CONVERSATION_EVENT_PAGE_MAX + 1 }, (_, i) =>
      c.message(i, `m${i}`),
    );
    const events = recorded([...start, ...messages]);
    const count = (limit?: number) => (r: ReadModelReader) =>
      conversationEventQueries(r).page('c1', { limit }).events.length;

    it('gives 100 by default, at least 1 and at most 500', () => {
      spec.given(events).thenQuery(count(), 100);
      spec.given(events).thenQuery(count(0), 1);
      spec.given(events).thenQuery(count(10_000), CONVERSATION_EVENT_PAGE_MAX);
    });
  });
});
