import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  conversationDecider,
  conversationStream,
  sessionDecider,
  sessionStream,
  type Actor,
  type ConversationCommand,
  type HarnessOutput,
  type SessionCommand,
} from '@sessionboxer/domain';
import { CommandHandler } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { createSession } from '../../domain/test/session-fixtures';
import { takeSnapshot } from '../../domain/test/session-activity-fixtures';
import { PERSON } from '../test/recorded-events';
import { useTempDir } from '../test/temp-files';
import {
  allProjections,
  compareReadModels,
  conversationEventQueries,
  conversationQueries,
  ProjectionRunner,
  rebuildReadModels,
  SqliteReadModelStore,
  transcriptQueries,
  type TranscriptEntry,
} from '.';

const AGENT: Actor = { kind: 'agent', sessionId: 's1' };
const meta = (actor: Actor = PERSON) => ({
  commandId: randomUUID(),
  at: new Date().toISOString(),
  actor,
});

describe('conversation read models over the real event store and command pipeline', () => {
  const dir = useTempDir();
  let eventStore: SqliteEventStore;
  let handler: CommandHandler;
  let live: SqliteReadModelStore;
  let runner: ProjectionRunner;
  let head = -1;

  const session = async (command: Omit<SessionCommand, 'metadata'>, actor?: Actor) => {
    const full = { ...command, metadata: meta(actor) } as SessionCommand;
    const { sessionId } = full.data;
    const r = await handler.handle(sessionDecider, sessionStream(sessionId), full);
    head = Math.max(head, r.position ?? -1);
  };
  const conversation = async (command: Omit<ConversationCommand, 'metadata'>, actor?: Actor) => {
    const full = { ...command, metadata: meta(actor) } as ConversationCommand;
    const stream = conversationStream(full.data.conversationId);
    const r = await handler.handle(conversationDecider, stream, full);
    head = Math.max(head, r.position ?? -1);
  };
  const submit = (conversationId: string, promptId: string, text: string, actor?: Actor) =>
    conversation(
      {
        type: 'SubmitPrompt',
        data: {
          conversationId,
          owner: { kind: 'session', sessionId: 's1' },
          harness: 'claude-code',
          promptId,
          text,
          model: null,
          from: actor ?? PERSON,
          briefing: 'You are in a box.',
        },
      },
      actor,
    );
  const record = (
    conversationId: string,
    turn: number,
    fromIndex: number,
    outputs: HarnessOutput[],
  ) =>
    conversation({
      type: 'RecordHarnessOutput',
      data: { conversationId, turn, fromIndex, outputs },
    });

  /** A session whose conversation (not named after it) runs two turns with a queued prompt. */
  async function work(): Promise<void> {
    await session({ type: 'CreateSession', data: createSession({ sessionId: 's1' }).data });
    await submit('chat-1', 'p1', 'Fix the tests');
    await record('chat-1', 1, 0, [
      { type: 'harness_session', id: 'claude-abc' },
      { type: 'message', text: 'Looking' },
      { type: 'tool_call', id: 't1', name: 'Bash', input: { command: 'npm test' } },
    ]);
    await submit('chat-1', 'p2', 'Then\nopen a PR', AGENT);
    await session({ type: 'TakeSnapshot', data: takeSnapshot('s1', 'snap-1').data });
    await record('chat-1', 1, 3, [
      { type: 'tool_result', id: 't1', output: 'ok', error: false },
      {
        type: 'turn_finished',
        status: 'finished',
        input_tokens: 50,
        output_tokens: 5,
        usage: null,
        context: null,
      },
    ]);
    await conversation({
      type: 'StartNextTurn',
      data: { conversationId: 'chat-1', briefing: null },
    });
    await conversation({ type: 'InterruptTurn', data: { conversationId: 'chat-1' } });
  }

  beforeEach(async () => {
    eventStore = SqliteEventStore.open({ path: join(dir(), 'events.db'), synchronous: 'NORMAL' });
    handler = new CommandHandler(eventStore);
    live = SqliteReadModelStore.open({ path: join(dir(), 'live.db') });
    runner = new ProjectionRunner({
      eventStore,
      store: live,
      projections: allProjections,
      batchSize: 3,
    });
    await runner.start();
    await work();
    await runner.waitForPosition(head, 10_000);
  });
  afterEach(async () => {
    await runner.stop();
    live.close();
    await eventStore.close();
  });

  const shown = (e: TranscriptEntry) =>
    e.kind === 'marker' ? e.marker.text : `${e.conversationId} ${e.event.type} ${e.event.seq}`;

  it('show the decider’s events in the session’s transcript, conversation and queue', () => {
    expect(transcriptQueries(live).page('s1').entries.map(shown)).toEqual([
      'created the Session',
      'chat-1 prompt 1',
      'chat-1 message 2',
      'chat-1 tool_call 3',
      'queued a message (“Then open a PR”)',
      'took Snapshot 1',
      'chat-1 tool_result 4',
      'chat-1 turn_finished 5',
      'chat-1 prompt 6',
      'chat-1 turn_finished 7',
    ]);
    expect(conversationQueries(live).forSession('s1')).toEqual([
      expect.objectContaining({
        id: 'chat-1',
        sessionId: 's1',
        status: 'interrupted',
        turns: 2,
        queue: [],
        preview: 'Fix the tests',
        lastReply: expect.objectContaining({ text: 'Looking', turn: 1 }),
        tokens: { input: 50, output: 5 },
        harnessSessionId: 'claude-abc',
        lastSeq: 7,
      }),
    ]);
    const page = conversationEventQueries(live).page('chat-1', { afterSeq: 5, limit: 1 });
    expect(page).toEqual({
      events: [expect.objectContaining({ type: 'prompt', seq: 6, from: AGENT, briefing: null })],
      next_after: 6,
    });
  });

  it('equal, exactly, a rebuild from position 0 into a fresh file', async () => {
    await runner.stop();
    const path = join(dir(), 'rebuilt.db');
    await rebuildReadModels({ eventStore, path, projections: allProjections, batchSize: 5 });
    const rebuilt = SqliteReadModelStore.open({ path });
    try {
      const comparison = compareReadModels(live, rebuilt);
      expect(comparison.projections.filter((p) => !p.equal)).toEqual([]);
      expect(comparison.projections.map((p) => p.projection)).toEqual(
        expect.arrayContaining(['conversations', 'conversation_events', 'transcript_markers']),
      );
      expect(transcriptQueries(rebuilt).page('s1')).toEqual(transcriptQueries(live).page('s1'));
    } finally {
      rebuilt.close();
    }
  });
});
