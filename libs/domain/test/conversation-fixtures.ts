import {
  conversationDecider,
  fold,
  type Actor,
  type AgentErrored,
  type AgentMessaged,
  type AgentToolCalled,
  type AgentToolReturned,
  type ConversationCommand,
  type ConversationEvent,
  type ConversationStarted,
  type ConversationState,
  type DropQueuedPrompt,
  type EditQueuedPrompt,
  type FailTurn,
  type HarnessOutput,
  type HarnessSessionNoted,
  type InterruptTurn,
  type PromptQueued,
  type QueuedPromptDropped,
  type QueuedPromptEdited,
  type RecordHarnessOutput,
  type StartNextTurn,
  type SubmitPrompt,
  type TurnFinished,
  type TurnStarted,
  type TurnStatus,
} from '../src';
import { AT, meta, PERSON } from './session-fixtures';

/**
 * Builders for conversation commands and events. Every one is about conversation c1 of
 * session s1 on claude-code, at AT, unless told; a prompt's text is `do <promptId>`.
 */
export const CID = 'c1';
export const AGENT: Actor = { kind: 'agent', sessionId: 's2' };
export const BRIEFING = 'You work in /workspace; open a PR when done.';

type SubmitData = SubmitPrompt['data'];

export function submit(promptId: string, data: Partial<SubmitData> = {}, at = AT): SubmitPrompt {
  const full: SubmitData = {
    conversationId: CID,
    owner: { kind: 'session', sessionId: 's1' },
    harness: 'claude-code',
    promptId,
    text: `do ${promptId}`,
    model: null,
    from: PERSON,
    briefing: null,
    ...data,
  };
  return { type: 'SubmitPrompt', data: full, metadata: meta({ at }) };
}

export function startNext(briefing: string | null = null, at = AT): StartNextTurn {
  return { type: 'StartNextTurn', data: { conversationId: CID, briefing }, metadata: meta({ at }) };
}

export function record(
  turn: number,
  fromIndex: number,
  outputs: HarnessOutput[],
  at = AT,
): RecordHarnessOutput {
  const data = { conversationId: CID, turn, fromIndex, outputs };
  return { type: 'RecordHarnessOutput', data, metadata: meta({ at }) };
}

export function interrupt(at = AT): InterruptTurn {
  return { type: 'InterruptTurn', data: { conversationId: CID }, metadata: meta({ at }) };
}

export function failTurn(turn: number, code = 'harness_exited', message = 'exit 137'): FailTurn {
  return { type: 'FailTurn', data: { conversationId: CID, turn, code, message }, metadata: meta() };
}

export function editPrompt(promptId: string, text: string): EditQueuedPrompt {
  const data = { conversationId: CID, promptId, text };
  return { type: 'EditQueuedPrompt', data, metadata: meta() };
}

export function dropPrompt(promptId: string): DropQueuedPrompt {
  return { type: 'DropQueuedPrompt', data: { conversationId: CID, promptId }, metadata: meta() };
}

/** What a harness reports, before the conversation numbers it. */
export const out = {
  message: (text: string): HarnessOutput => ({ type: 'message', text }),
  toolCall: (id: string, input: unknown = { path: 'a.ts' }): HarnessOutput => ({
    type: 'tool_call',
    id,
    name: 'read_file',
    input,
  }),
  toolResult: (id: string, output: string, error = false): HarnessOutput => ({
    type: 'tool_result',
    id,
    output,
    error,
  }),
  error: (code: string, message: string): HarnessOutput => ({ type: 'error', code, message }),
  finished: (status: TurnStatus = 'finished'): HarnessOutput => ({
    type: 'turn_finished',
    status,
    input_tokens: 120,
    output_tokens: 30,
    usage: null,
    context: { usedTokens: 150, windowTokens: 200_000 },
  }),
  session: (id: string): HarnessOutput => ({ type: 'harness_session', id }),
};

export function conversationStarted(model = 'default', at = AT): ConversationStarted {
  const owner = { kind: 'session', sessionId: 's1' } as const;
  return {
    type: 'ConversationStarted',
    data: { conversationId: CID, owner, harness: 'claude-code', model, at },
  };
}

type QueuedFields = Partial<Omit<PromptQueued['data'], 'conversationId' | 'promptId'>>;

export function promptQueued(promptId: string, fields: QueuedFields = {}): PromptQueued {
  const data = {
    promptId,
    text: `do ${promptId}`,
    model: null,
    from: PERSON,
    hop: 0,
    at: AT,
    ...fields,
  };
  return { type: 'PromptQueued', data: { conversationId: CID, ...data } };
}

export function promptEdited(promptId: string, text: string, previousText: string) {
  const data = { conversationId: CID, promptId, text, previousText, at: AT };
  return { type: 'QueuedPromptEdited', data } satisfies QueuedPromptEdited;
}

export function promptDropped(promptId: string, text = `do ${promptId}`) {
  const data = { conversationId: CID, promptId, text, at: AT };
  return { type: 'QueuedPromptDropped', data } satisfies QueuedPromptDropped;
}

type TurnFields = Partial<
  Pick<TurnStarted['data'], 'text' | 'model' | 'from' | 'hop' | 'briefing' | 'at'>
>;

/** Turn `turn` starts with prompt `promptId` as event `seq`. */
export function turnStarted(
  turn: number,
  seq: number,
  promptId: string,
  fields: TurnFields = {},
): TurnStarted {
  const prompt = { promptId, text: `do ${promptId}`, model: 'default', from: PERSON, hop: 0 };
  const data = { conversationId: CID, seq, at: AT, turn, ...prompt, briefing: null, ...fields };
  return { type: 'TurnStarted', data };
}

const sequenced = (turn: number, seq: number, at = AT) => ({ conversationId: CID, seq, at, turn });

export function agentMessaged(turn: number, seq: number, text: string): AgentMessaged {
  return { type: 'AgentMessaged', data: { ...sequenced(turn, seq), text } };
}

export function toolCalled(
  turn: number,
  seq: number,
  id: string,
  input: unknown = { path: 'a.ts' },
) {
  const data = { ...sequenced(turn, seq), id, name: 'read_file', input };
  return { type: 'AgentToolCalled', data } satisfies AgentToolCalled;
}

export function toolReturned(turn: number, seq: number, id: string, output: string, error = false) {
  const data = { ...sequenced(turn, seq), id, output, error };
  return { type: 'AgentToolReturned', data } satisfies AgentToolReturned;
}

export function agentErrored(turn: number, seq: number, code: string, message: string) {
  return {
    type: 'AgentErrored',
    data: { ...sequenced(turn, seq), code, message },
  } satisfies AgentErrored;
}

/** The harness's own turn_finished (as out.finished reports it). */
export function turnFinished(turn: number, seq: number, status: TurnStatus = 'finished') {
  const counts = { input_tokens: 120, output_tokens: 30, usage: null };
  const context = { usedTokens: 150, windowTokens: 200_000 };
  const data = { ...sequenced(turn, seq), status, ...counts, context };
  return { type: 'TurnFinished', data } satisfies TurnFinished;
}

/** A turn the conversation ended itself (InterruptTurn, FailTurn): no usage was reported. */
export function turnEnded(turn: number, seq: number, status: 'interrupted' | 'failed', at = AT) {
  const counts = { input_tokens: 0, output_tokens: 0, usage: null, context: null };
  const data = { ...sequenced(turn, seq, at), status, ...counts };
  return { type: 'TurnFinished', data } satisfies TurnFinished;
}

export function harnessSessionNoted(harnessSessionId: string): HarnessSessionNoted {
  return { type: 'HarnessSessionNoted', data: { conversationId: CID, harnessSessionId, at: AT } };
}

/** Histories the specs start from. */
export const RUNNING: ConversationEvent[] = [conversationStarted(), turnStarted(1, 1, 'p1')];
export const IDLE: ConversationEvent[] = [...RUNNING, turnFinished(1, 2)];
/** Turn 1 runs; p2 then p3 wait. */
export const QUEUED: ConversationEvent[] = [...RUNNING, promptQueued('p2'), promptQueued('p3')];

export function stateAfter(events: readonly ConversationEvent[]): ConversationState {
  return fold(conversationDecider, events);
}

/** Decides each command on the state the previous ones left; all the events, in order. */
export function decideAll(
  history: readonly ConversationEvent[],
  commands: readonly ConversationCommand[],
): ConversationEvent[] {
  const events = [...history];
  for (const command of commands) {
    events.push(...conversationDecider.decide(command, stateAfter(events)));
  }
  return events.slice(history.length);
}
