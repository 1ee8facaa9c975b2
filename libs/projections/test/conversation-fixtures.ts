import type {
  Actor,
  ContextUse,
  ConversationEvent,
  ConversationOwner,
  HarnessName,
  TurnStatus,
} from '@sessionboxer/domain';
import { PERSON } from './recorded-events';

/** `2026-01-02T03:04:05.000Z` plus `n` seconds: distinct, ordered times for events. */
export function second(n: number): string {
  return new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + n * 1000).toISOString();
}

export const sessionOwner = (sessionId: string): ConversationOwner => ({
  kind: 'session',
  sessionId,
});

interface Finish {
  status?: TurnStatus;
  input?: number;
  output?: number;
  usage?: Record<string, unknown> | null;
  context?: ContextUse | null;
  costUsd?: number;
}

/**
 * A conversation's events as its decider numbers them: each spec event takes the next seq, a
 * `turn` starts the next turn. Each builder takes the second it happens at (see `second`).
 */
export class ConversationScript {
  private seq = 0;
  private turnNo = 0;

  constructor(
    readonly conversationId: string,
    readonly owner: ConversationOwner,
  ) {}

  started(t = 0, harness: HarnessName = 'claude-code', model = 'default'): ConversationEvent {
    const { conversationId, owner } = this;
    return {
      type: 'ConversationStarted',
      data: { conversationId, owner, harness, model, at: second(t) },
    };
  }

  queued(t: number, promptId: string, text: string, from: Actor = PERSON): ConversationEvent {
    const data = { conversationId: this.conversationId, promptId, text, model: null, from, hop: 0 };
    return { type: 'PromptQueued', data: { ...data, at: second(t) } };
  }

  edited(t: number, promptId: string, text: string, previousText: string): ConversationEvent {
    const data = { conversationId: this.conversationId, promptId, text, previousText };
    return { type: 'QueuedPromptEdited', data: { ...data, at: second(t) } };
  }

  dropped(t: number, promptId: string, text: string): ConversationEvent {
    const data = { conversationId: this.conversationId, promptId, text, at: second(t) };
    return { type: 'QueuedPromptDropped', data };
  }

  turn(t: number, promptId: string, text: string, model = 'default'): ConversationEvent {
    this.turnNo++;
    const briefing = this.turnNo === 1 ? 'You are in a box.' : null;
    const data = { ...this.sequenced(t), promptId, text, model, from: PERSON, hop: 0, briefing };
    return { type: 'TurnStarted', data };
  }

  message(t: number, text: string): ConversationEvent {
    return { type: 'AgentMessaged', data: { ...this.sequenced(t), text } };
  }

  toolCall(t: number, id: string, name: string, input: unknown): ConversationEvent {
    return { type: 'AgentToolCalled', data: { ...this.sequenced(t), id, name, input } };
  }

  toolResult(t: number, id: string, output: string, error = false): ConversationEvent {
    return { type: 'AgentToolReturned', data: { ...this.sequenced(t), id, output, error } };
  }

  error(t: number, code: string, message: string): ConversationEvent {
    return { type: 'AgentErrored', data: { ...this.sequenced(t), code, message } };
  }

  finished(t: number, f: Finish = {}): ConversationEvent {
    const { status = 'finished', input = 0, output = 0, usage = null, context = null } = f;
    const priced = f.costUsd === undefined ? {} : { cost_usd: f.costUsd };
    const counts = { input_tokens: input, output_tokens: output, usage, context, ...priced };
    return { type: 'TurnFinished', data: { ...this.sequenced(t), status, ...counts } };
  }

  harnessSession(t: number, harnessSessionId: string): ConversationEvent {
    const data = { conversationId: this.conversationId, harnessSessionId, at: second(t) };
    return { type: 'HarnessSessionNoted', data };
  }

  private sequenced(t: number) {
    const { conversationId, turnNo: turn } = this;
    return { conversationId, seq: ++this.seq, at: second(t), turn };
  }
}

export function conversationScript(
  conversationId: string,
  owner: ConversationOwner,
): ConversationScript {
  return new ConversationScript(conversationId, owner);
}
