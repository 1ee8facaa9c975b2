import type { Actor, DomainEvent } from '../kernel';
import type { HarnessName } from '../limits';

/**
 * Whose agent the conversation is. A session's own agent today; the sandbox API's
 * conversations later. Nothing in the aggregate depends on which.
 */
export type ConversationOwner =
  { kind: 'session'; sessionId: string } | { kind: 'sandbox'; sandboxId: string };

/** How a turn ended (the spec's turn_finished status). */
export type TurnStatus = 'finished' | 'interrupted' | 'failed';

export const TURN_STATUSES: readonly TurnStatus[] = ['finished', 'interrupted', 'failed'];

/** Context-window use of the conversation as its harness reported it at the end of a turn. */
export interface ContextUse {
  usedTokens: number;
  windowTokens: number | null;
}

/** Fields every spec-shaped event carries: `seq` (1, 2, … per conversation), `at`, `turn`. */
interface Sequenced {
  conversationId: string;
  seq: number;
  at: string;
  turn: number;
}

export type ConversationStarted = DomainEvent<
  'ConversationStarted',
  {
    conversationId: string;
    owner: ConversationOwner;
    harness: HarnessName;
    /** The model the conversation keeps for later turns; `default`: the harness's own. */
    model: string;
    at: string;
  }
>;

/** A prompt that waits for the running turn (and anything queued before it) to end. */
export type PromptQueued = DomainEvent<
  'PromptQueued',
  {
    conversationId: string;
    promptId: string;
    text: string;
    /** A model for that turn, or null for the conversation's. */
    model: string | null;
    /** Who sent it: a person, the agent itself (queue_add), another session's agent. */
    from: Actor;
    /** Agents prompting agents: 0 from a person, the sending turn's hop + 1 from an agent. */
    hop: number;
    at: string;
  }
>;

export type QueuedPromptEdited = DomainEvent<
  'QueuedPromptEdited',
  { conversationId: string; promptId: string; text: string; previousText: string; at: string }
>;

export type QueuedPromptDropped = DomainEvent<
  'QueuedPromptDropped',
  { conversationId: string; promptId: string; text: string; at: string }
>;

/** The spec's `prompt` event: a turn starts with this prompt. */
export type TurnStarted = DomainEvent<
  'TurnStarted',
  Sequenced & {
    promptId: string;
    text: string;
    model: string;
    from: Actor;
    hop: number;
    /** What the agent was told before the prompt (the first turn's briefing), else null. */
    briefing: string | null;
  }
>;

/** The spec's `message` event: the agent's words. */
export type AgentMessaged = DomainEvent<'AgentMessaged', Sequenced & { text: string }>;

/** The spec's `tool_call` event. */
export type AgentToolCalled = DomainEvent<
  'AgentToolCalled',
  Sequenced & { id: string; name: string; input: unknown }
>;

/** The spec's `tool_result` event; `output` is cut at TOOL_OUTPUT_MAX characters. */
export type AgentToolReturned = DomainEvent<
  'AgentToolReturned',
  Sequenced & { id: string; output: string; error: boolean }
>;

/** The spec's `error` event: something went wrong in the turn (the turn may still go on). */
export type AgentErrored = DomainEvent<
  'AgentErrored',
  Sequenced & { code: string; message: string }
>;

/** The spec's `turn_finished` event, with the usage and context the harness reported. */
export type TurnFinished = DomainEvent<
  'TurnFinished',
  Sequenced & {
    status: TurnStatus;
    input_tokens: number;
    output_tokens: number;
    /** The provider's usage windows, when it reports them (whoami's `usage`). */
    usage: Record<string, unknown> | null;
    context: ContextUse | null;
    /** What the turn cost in US dollars; absent when the CLI did not say. */
    cost_usd?: number;
  }
>;

/**
 * The harness's own id of the conversation (Claude Code's session id, OpenCode's session),
 * so the next turn continues it. Not one of the spec's events.
 */
export type HarnessSessionNoted = DomainEvent<
  'HarnessSessionNoted',
  { conversationId: string; harnessSessionId: string; at: string }
>;

/**
 * Outputs `from`…`resumeAt - 1` of the running turn never reached Sessionboxer (the box
 * dropped them while cut off for long): later ones are numbered from `resumeAt`. Not a spec
 * event; the AgentErrored `outputs_lost` before it says so in the transcript.
 */
export type HarnessOutputsLost = DomainEvent<
  'HarnessOutputsLost',
  { conversationId: string; turn: number; from: number; resumeAt: number; at: string }
>;

/** The events of the spec's agent_conversations, in the domain's past tense. */
export type SequencedConversationEvent =
  TurnStarted | AgentMessaged | AgentToolCalled | AgentToolReturned | AgentErrored | TurnFinished;

export type ConversationEvent =
  | ConversationStarted
  | PromptQueued
  | QueuedPromptEdited
  | QueuedPromptDropped
  | HarnessSessionNoted
  | HarnessOutputsLost
  | SequencedConversationEvent;

/** Domain event type → the spec's event type. */
export const SPEC_EVENT_TYPES = {
  TurnStarted: 'prompt',
  AgentMessaged: 'message',
  AgentToolCalled: 'tool_call',
  AgentToolReturned: 'tool_result',
  AgentErrored: 'error',
  TurnFinished: 'turn_finished',
} as const satisfies Record<SequencedConversationEvent['type'], string>;

export type SpecEventType = (typeof SPEC_EVENT_TYPES)[keyof typeof SPEC_EVENT_TYPES];

export const SEQUENCED_EVENT_TYPES = Object.keys(
  SPEC_EVENT_TYPES,
) as readonly SequencedConversationEvent['type'][];

export const CONVERSATION_EVENT_TYPES: readonly ConversationEvent['type'][] = [
  'ConversationStarted',
  'PromptQueued',
  'QueuedPromptEdited',
  'QueuedPromptDropped',
  'HarnessSessionNoted',
  'HarnessOutputsLost',
  ...SEQUENCED_EVENT_TYPES,
];

export function isConversationEvent(event: {
  type: string;
  data: unknown;
}): event is ConversationEvent {
  return (CONVERSATION_EVENT_TYPES as readonly string[]).includes(event.type);
}

export function isSequencedEvent(event: {
  type: string;
  data: unknown;
}): event is SequencedConversationEvent {
  return (SEQUENCED_EVENT_TYPES as readonly string[]).includes(event.type);
}
