/**
 * A realistic log for the projection benchmarks: sessions that each run one conversation of
 * turns (a prompt, the agent's messages, tool calls and their results, the turn's end), with a
 * rename, a stop and a resume between turns, many sessions at once so their events interleave
 * in `$all` as they do in a team's store. About 100 events per session, most of them the
 * conversation's (what the transcript and conversation read models spend their time on).
 */
import { randomUUID } from 'node:crypto';
import { conversationStream, sessionStream } from '@sessionboxer/domain';
import type { EventStore, NewEvent } from '@sessionboxer/event-store';

const TURNS = 10;
const TOOL_CALLS_PER_TURN = 3;
/** Sessions appended side by side, one append (a turn, or a session step) each per round. */
const SIDE_BY_SIDE = 256;
const person = { kind: 'person', id: 'bench' } as const;

interface Step {
  stream: string;
  events: NewEvent[];
}

function newEvent(type: string, data: Record<string, unknown>, commandId: string): NewEvent {
  const metadata = {
    commandId,
    correlationId: commandId,
    causationId: commandId,
    actor: person,
    at: data.at as string,
  };
  return { id: randomUUID(), type, data, metadata };
}

/** One turn of a conversation: 2 + 2 × tool calls + 2 events, with `seq` going on from `seq`. */
function turn(conversationId: string, n: number, seq: number, at: string): NewEvent[] {
  const c = randomUUID();
  const base = (s: number) => ({ conversationId, seq: s, at, turn: n });
  const events: NewEvent[] = [];
  const text = `Please make the backend tests pass (turn ${n}); look at src/ and test/ first.`;
  events.push(
    newEvent(
      'TurnStarted',
      {
        ...base(seq++),
        promptId: randomUUID(),
        text,
        model: 'default',
        from: person,
        hop: 0,
        briefing: null,
      },
      c,
    ),
  );
  events.push(newEvent('AgentMessaged', { ...base(seq++), text: 'Reading the tests.' }, c));
  for (let t = 0; t < TOOL_CALLS_PER_TURN; t++) {
    const id = `toolu_${randomUUID()}`;
    const input = { command: `npx jest test/part-${t}.spec.ts`, timeout: 120000 };
    events.push(newEvent('AgentToolCalled', { ...base(seq++), id, name: 'Bash', input }, c));
    const output = `PASS test/part-${t}.spec.ts\n${'  ✓ a case of the suite (3 ms)\n'.repeat(12)}`;
    events.push(newEvent('AgentToolReturned', { ...base(seq++), id, output, error: t === 2 }, c));
  }
  const reply = `Done: the tests pass now. ${'I changed the handler and its test. '.repeat(6)}`;
  events.push(newEvent('AgentMessaged', { ...base(seq++), text: reply }, c));
  events.push(
    newEvent(
      'TurnFinished',
      {
        ...base(seq++),
        status: 'finished',
        input_tokens: 12_000,
        output_tokens: 900,
        usage: null,
        context: { usedTokens: 40_000, windowTokens: 200_000 },
      },
      c,
    ),
  );
  return events;
}

/** A session's appends in order: its creation, its conversation's start, then its turns. */
function* sessionSteps(): Generator<Step> {
  const sessionId = randomUUID();
  const conversationId = randomUUID();
  const session = sessionStream(sessionId);
  const conversation = conversationStream(conversationId);
  const at = new Date().toISOString();
  const create = {
    sessionId,
    title: `Bench ${sessionId.slice(0, 8)}`,
    provider: 'claude-code',
    model: 'default',
    environment: 'docker-linux',
    createdBy: null,
    forkedFrom: null,
    repos: [],
    branch: null,
    at,
  };
  yield { stream: session, events: [newEvent('SessionCreated', create, randomUUID())] };
  const owner = { kind: 'session', sessionId };
  const start = { conversationId, owner, harness: 'claude-code', model: 'default', at };
  yield { stream: conversation, events: [newEvent('ConversationStarted', start, randomUUID())] };
  let seq = 1;
  for (let n = 1; n <= TURNS; n++) {
    const events = turn(conversationId, n, seq, at);
    seq += events.length;
    yield { stream: conversation, events };
    const c = randomUUID();
    if (n === 3) {
      const data = { sessionId, title: `Renamed ${n}`, previousTitle: create.title, at };
      yield { stream: session, events: [newEvent('SessionTitleSet', data, c)] };
    }
    if (n === 6)
      yield {
        stream: session,
        events: [newEvent('SessionStopped', { sessionId, reason: null, at }, c)],
      };
    if (n === 7)
      yield { stream: session, events: [newEvent('SessionResumed', { sessionId, at }, c)] };
  }
}

/** Appends at least `total` events of whole sessions, SIDE_BY_SIDE sessions at a time. */
export async function appendWorkload(store: EventStore, total: number): Promise<number> {
  let appended = 0;
  while (appended < total) {
    const sessions = Array.from({ length: SIDE_BY_SIDE }, () => sessionSteps());
    let live = sessions;
    while (live.length > 0) {
      const steps = live.map((s) => s.next());
      live = live.filter((_, i) => steps[i].done !== true);
      await Promise.all(
        steps.flatMap((r) => {
          if (r.done === true) return [];
          appended += r.value.events.length;
          return [store.appendToStream(r.value.stream, r.value.events)];
        }),
      );
    }
  }
  return appended;
}
