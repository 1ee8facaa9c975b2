import type { Actor, ConversationEvent } from '@sessionboxer/domain';
import { conversationScript, second, sessionOwner } from '../test/conversation-fixtures';
import { ProjectionSpecification } from '../test/projection-spec';
import { PERSON, recorded } from '../test/recorded-events';
import {
  conversationQueries,
  conversationsProjection,
  type ConversationDoc,
} from './conversations.projection';
import type { ReadModelReader } from './store/read-model-store';

const spec = ProjectionSpecification.for(conversationsProjection);
const AGENT: Actor = { kind: 'agent', sessionId: 's1' };
const get = (id: string) => (r: ReadModelReader) => conversationQueries(r).get(id);
const c1 = conversationScript('c1', sessionOwner('s1'));

const fresh: ConversationDoc = {
  id: 'c1',
  owner: { kind: 'session', sessionId: 's1' },
  sessionId: 's1',
  harness: 'claude-code',
  model: 'default',
  status: 'idle',
  turns: 0,
  currentTurn: null,
  running: null,
  queue: [],
  queued: 0,
  preview: null,
  lastReply: null,
  usage: null,
  context: null,
  tokens: { input: 0, output: 0 },
  costUsd: null,
  harnessSessionId: null,
  lastSeq: 0,
  createdAt: second(0),
  updatedAt: second(0),
};

describe('conversations projection', () => {
  describe('no events', () => {
    it('knows no conversation', () => {
      spec.given([]).thenQuery(
        (r) => {
          const q = conversationQueries(r);
          return [q.get('c1'), q.forSession('s1'), q.queue('c1')];
        },
        [null, [], null],
      );
    });
  });

  describe('a conversation just started', () => {
    it('is one idle document, keyed by the conversation id', () => {
      spec.given(recorded([c1.started()])).then({ c1: fresh });
    });

    it('ignores events of a conversation it never saw start', () => {
      const other = conversationScript('c9', sessionOwner('s1'));
      spec.given(recorded([other.turn(1, 'p1', 'Hi'), other.message(2, 'Hello')])).then({});
    });
  });

  describe('a turn that runs', () => {
    const c = conversationScript('c1', sessionOwner('s1'));
    const events = recorded([
      c.started(),
      c.turn(1, 'p1', 'Fix the tests', 'opus'),
      c.harnessSession(2, 'claude-123'),
      c.toolCall(3, 't1', 'Bash', { command: 'npm test' }),
      c.toolResult(4, 't1', 'ok'),
      c.message(5, 'They pass now.'),
      c.toolCall(6, 't2', 'Read', { path: 'README.md' }),
    ]);

    it('is running its turn, with the prompt as preview and the last message as reply', () => {
      spec.given(events).then({
        c1: {
          ...fresh,
          model: 'opus',
          status: 'running',
          turns: 1,
          currentTurn: 1,
          running: { hop: 0, position: expect.any(Number) as number },
          preview: 'Fix the tests',
          lastReply: { text: 'They pass now.', at: second(5), turn: 1 },
          harnessSessionId: 'claude-123',
          lastSeq: 5,
          updatedAt: second(6),
        },
      });
    });
  });

  describe('turns that end', () => {
    const c = conversationScript('c1', sessionOwner('s1'));
    const usage = { fiveHour: { used: 0.2 } };
    const first = [
      c.started(),
      c.turn(1, 'p1', 'One'),
      c.message(2, 'Done one'),
      c.finished(3, { input: 100, output: 10, usage, context: { usedTokens: 5, windowTokens: 9 } }),
    ];
    const status = (r: ReadModelReader) => {
      const doc = conversationQueries(r).get('c1');
      return doc && [doc.status, doc.currentTurn, doc.turns, doc.lastSeq];
    };

    it('is idle after a finished turn', () => {
      spec.given(recorded(first)).thenQuery(status, ['idle', null, 1, 3]);
    });

    it('says a turn failed or was interrupted', () => {
      const failed = [...first, c.turn(4, 'p2', 'Two'), c.error(5, 'crash', 'exit 1')];
      const failedEnd = c.finished(6, { status: 'failed' });
      spec.given(recorded([...failed, failedEnd])).thenQuery(status, ['failed', null, 2, 6]);
      const interrupted = conversationScript('c1', sessionOwner('s1'));
      const stopped = [
        interrupted.started(),
        interrupted.turn(1, 'p1', 'One'),
        interrupted.finished(2, { status: 'interrupted' }),
      ];
      spec.given(recorded(stopped)).thenQuery(status, ['interrupted', null, 1, 2]);
    });

    it('sums tokens over turns and keeps the last usage and context reported', () => {
      const s = conversationScript('c1', sessionOwner('s1'));
      const events = recorded([
        s.started(),
        s.turn(1, 'p1', 'One'),
        s.finished(2, {
          input: 100,
          output: 10,
          usage,
          context: { usedTokens: 5, windowTokens: 9 },
        }),
        s.turn(3, 'p2', 'Two'),
        s.finished(4, { input: 7, output: 3, context: { usedTokens: 8, windowTokens: 9 } }),
        s.turn(5, 'p3', 'Three'),
        s.finished(6, { status: 'interrupted' }),
      ]);
      spec.given(events).thenQuery(
        (r) => {
          const doc = conversationQueries(r).get('c1');
          return doc && { tokens: doc.tokens, usage: doc.usage, context: doc.context };
        },
        { tokens: { input: 107, output: 13 }, usage, context: { usedTokens: 8, windowTokens: 9 } },
      );
    });
  });

  it('sums the cost of the turns whose CLI reported one, and stays null while none did', () => {
    const s = conversationScript('c1', sessionOwner('s1'));
    const cost = (events: ConversationEvent[]) =>
      spec
        .given(recorded(events))
        .thenQuery((r) => conversationQueries(r).get('c1')?.costUsd, 0.03);
    cost([
      s.started(),
      s.turn(1, 'p1', 'One'),
      s.finished(2, { costUsd: 0.01 }),
      s.turn(3, 'p2', 'Two'),
      s.finished(4),
      s.turn(5, 'p3', 'Three'),
      s.finished(6, { costUsd: 0.02 }),
    ]);
    const t = conversationScript('c1', sessionOwner('s1'));
    spec
      .given(recorded([t.started(), t.turn(1, 'p1', 'One'), t.finished(2)]))
      .thenQuery((r) => conversationQueries(r).get('c1')?.costUsd, null);
  });

  describe('the queue', () => {
    const c = conversationScript('c1', sessionOwner('s1'));
    const running = [c.started(), c.turn(1, 'p1', 'First')];

    it('lists waiting prompts in order, with edits, drops and the prompt a turn took', () => {
      const events = recorded([
        ...running,
        c.queued(2, 'p2', 'Second'),
        { actor: AGENT, event: c.queued(3, 'p3', 'Third', AGENT) },
        c.queued(4, 'p4', 'Fourth'),
        c.edited(5, 'p4', 'Fourth, edited', 'Fourth'),
        c.dropped(6, 'p3', 'Third'),
        c.finished(7),
        c.turn(8, 'p2', 'Second'),
      ]);
      spec.given(events).thenQuery(get('c1'), {
        ...fresh,
        status: 'running',
        turns: 2,
        currentTurn: 2,
        running: { hop: 0, position: expect.any(Number) as number },
        preview: 'First',
        queue: [{ id: 'p4', text: 'Fourth, edited', model: null, from: PERSON, at: second(4) }],
        queued: 1,
        lastSeq: 3,
        updatedAt: second(8),
      });
    });

    it('answers the queue alone, in order', () => {
      const events = recorded([
        ...running,
        c.queued(2, 'p2', 'Second'),
        { actor: AGENT, event: c.queued(3, 'p3', 'Third', AGENT) },
      ]);
      spec.given(events).thenQuery(
        (r) => conversationQueries(r).queue('c1'),
        [
          { id: 'p2', text: 'Second', model: null, from: PERSON, at: second(2) },
          { id: 'p3', text: 'Third', model: null, from: AGENT, at: second(3) },
        ],
      );
    });

    it('previews the first waiting prompt until a turn has run', () => {
      const q = conversationScript('c1', sessionOwner('s1'));
      const preview = (r: ReadModelReader) => conversationQueries(r).get('c1')?.preview;
      const queuedFirst = [q.started(), q.queued(1, 'p1', 'One'), q.queued(2, 'p2', 'Two')];
      spec.given(recorded(queuedFirst)).thenQuery(preview, 'One');
      const edited = [...queuedFirst, q.edited(3, 'p1', 'One, edited', 'One')];
      spec.given(recorded(edited)).thenQuery(preview, 'One, edited');
      spec
        .given(recorded([...edited, q.dropped(4, 'p1', 'One, edited')]))
        .thenQuery(preview, 'Two');
      spec
        .given(recorded([...queuedFirst.slice(0, 2), q.dropped(3, 'p1', 'One')]))
        .thenQuery(preview, null);
    });
  });

  describe('long texts', () => {
    const withTexts = (prompt: string, reply: string) => {
      const c = conversationScript('c1', sessionOwner('s1'));
      return recorded([c.started(), c.turn(1, 'p1', prompt), c.message(2, reply)]);
    };
    const cutTexts = (r: ReadModelReader) => {
      const doc = conversationQueries(r).get('c1');
      return [doc?.preview, doc?.lastReply?.text];
    };

    it('cuts the preview at 200 and the reply at 2,000 characters, counting an emoji once', () => {
      spec
        .given(withTexts('😀'.repeat(201), 'x'.repeat(1_999) + '😀😀'))
        .thenQuery(cutTexts, ['😀'.repeat(199) + '…', 'x'.repeat(1_999) + '…']);
      spec
        .given(withTexts('😀'.repeat(200), 'x'.repeat(2_000)))
        .thenQuery(cutTexts, ['😀'.repeat(200), 'x'.repeat(2_000)]);
    });
  });

  describe("owners' conversations", () => {
    const a = conversationScript('a', sessionOwner('s1'));
    const b = conversationScript('b', { kind: 'sandbox', sandboxId: 's1' });
    const z = conversationScript('z', sessionOwner('s2'));
    const y = conversationScript('0-first-by-id', sessionOwner('s1'));
    const events = recorded([a.started(), b.started(), z.started(), y.started(1)]);

    it('lists a session’s conversations oldest first, not a sandbox’s of the same id', () => {
      spec.given(events).thenQuery(
        (r) =>
          conversationQueries(r)
            .forSession('s1')
            .map((d) => [d.id, d.sessionId]),
        [
          ['a', 's1'],
          ['0-first-by-id', 's1'],
        ],
      );
    });

    it('gives a sandbox’s conversation no session', () => {
      spec.given(events).thenQuery((r) => conversationQueries(r).get('b'), {
        ...fresh,
        id: 'b',
        owner: { kind: 'sandbox', sandboxId: 's1' },
        sessionId: null,
      });
    });
  });
});
