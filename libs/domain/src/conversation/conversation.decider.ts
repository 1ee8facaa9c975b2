import { assertNever, DomainError, ErrorCode, type Decider } from '../kernel';
import { exactId, invalid } from '../kernel/validation';
import type {
  ConversationCommand,
  DropQueuedPrompt,
  EditQueuedPrompt,
  StartNextTurn,
  SubmitPrompt,
} from './conversation.commands';
import type {
  ConversationEvent,
  ConversationOwner,
  ConversationStarted,
} from './conversation.events';
import { fail, interrupt, recordOutput } from './conversation.output';
import {
  existingConversation,
  initialConversationState,
  type ConversationState,
  type ExistingConversation,
  type QueuedPrompt,
} from './conversation.state';
import {
  QUEUE_MAX,
  validHarness,
  validModelName,
  validPromptText,
} from './conversation.validation';

/** The conversation's stream, `conversation-<id>` (the `category-id` form of streamName). */
export function conversationStream(conversationId: string): string {
  return `conversation-${exactId(conversationId, 'conversationId')}`;
}

function validOwner(owner: unknown): ConversationOwner {
  const o = owner as ConversationOwner | null;
  if (o?.kind === 'session')
    return { kind: 'session', sessionId: exactId(o.sessionId, 'owner.sessionId') };
  if (o?.kind === 'sandbox')
    return { kind: 'sandbox', sandboxId: exactId(o.sandboxId, 'owner.sandboxId') };
  throw invalid(
    'owner',
    'owner must be { kind: "session", sessionId } or { kind: "sandbox", sandboxId }',
  );
}

/** A chain of agents prompting agents stops here: the 5th hop is refused. */
export const MAX_HOPS = 4;

function validHop(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalid('hop', 'hop must be a whole number of 0 or more');
  }
  if (value > MAX_HOPS) {
    throw new DomainError(
      ErrorCode.LimitReached,
      `a chain of agents prompting agents stops after ${MAX_HOPS} hops; this message would be hop ${value}`,
      { field: 'hop', hop: value },
    );
  }
  return value;
}

/** Another session's agent: one message in flight to this conversation at a time. */
function checkMessageLimits(c: ExistingConversation, prompt: QueuedPrompt): void {
  const from = prompt.from;
  if (
    from.kind !== 'agent' ||
    (c.owner.kind === 'session' && from.sessionId === c.owner.sessionId)
  ) {
    return;
  }
  const same = (a: { from: { kind: string; sessionId?: string } } | null) =>
    a?.from.kind === 'agent' && a.from.sessionId === from.sessionId;
  if (same(c.running) || c.queue.some(same)) {
    throw new DomainError(
      ErrorCode.LimitReached,
      'a message from this session to that one is still in flight; wait for its reply (session_wait) first',
      { field: 'from', sessionId: from.sessionId },
    );
  }
}

function validModel(value: unknown): string | null {
  return value === null || value === undefined ? null : validModelName(value);
}

/** A conversation just started: idle, before its first turn. */
function startedState(event: ConversationStarted): ExistingConversation {
  const { conversationId, owner, harness, model } = event.data;
  const counters = {
    turn: 0,
    seq: 0,
    outputs: 0,
    queue: [],
    harnessSessionId: null,
    running: null,
  };
  return { status: 'idle', conversationId, owner, harness, model, ...counters };
}

function turnStarted(
  c: ExistingConversation,
  prompt: QueuedPrompt,
  briefing: string | null,
  at: string,
): ConversationEvent {
  const turn = c.turn + 1;
  const data = {
    conversationId: c.conversationId,
    seq: c.seq + 1,
    at,
    turn,
    promptId: prompt.promptId,
    text: prompt.text,
    model: prompt.model ?? c.model,
    from: prompt.from,
    hop: prompt.hop,
    briefing: turn === 1 ? briefing : null,
  };
  return { type: 'TurnStarted', data };
}

function submit(command: SubmitPrompt, state: ConversationState): ConversationEvent[] {
  const { data, metadata } = command;
  const conversationId = exactId(data.conversationId, 'conversationId');
  const prompt: QueuedPrompt = {
    promptId: exactId(data.promptId, 'promptId'),
    text: validPromptText(data.text),
    model: validModel(data.model),
    from: data.from,
    hop: validHop(data.hop),
    at: metadata.at,
  };
  const events: ConversationEvent[] = [];
  let c: ExistingConversation;
  if (state.status === 'absent') {
    const harness = validHarness(data.harness);
    const model = prompt.model ?? 'default';
    const owner = validOwner(data.owner);
    const started: ConversationStarted = {
      type: 'ConversationStarted',
      data: { conversationId, owner, harness, model, at: metadata.at },
    };
    events.push(started);
    c = startedState(started);
  } else {
    c = state;
    if (validHarness(data.harness) !== c.harness) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        `this conversation runs ${c.harness}; a prompt for ${data.harness} needs a new conversation`,
        { field: 'harness', conversationId },
      );
    }
  }
  checkMessageLimits(c, prompt);
  if (c.queue.some((q) => q.promptId === prompt.promptId)) {
    throw new DomainError(ErrorCode.AlreadyExists, `prompt ${prompt.promptId} is already queued`);
  }
  if (c.status === 'idle' && c.queue.length === 0 && data.queue !== true) {
    return [...events, turnStarted(c, prompt, data.briefing, metadata.at)];
  }
  if (c.queue.length >= QUEUE_MAX) {
    throw new DomainError(
      ErrorCode.LimitReached,
      `${QUEUE_MAX} prompts already wait in the queue; drop one or wait for the turns to run`,
      { conversationId, queued: c.queue.length },
    );
  }
  const { promptId, text, model, from, hop, at } = prompt;
  return [
    ...events,
    { type: 'PromptQueued', data: { conversationId, promptId, text, model, from, hop, at } },
  ];
}

function startNext(command: StartNextTurn, state: ConversationState): ConversationEvent[] {
  const c = existingConversation(state, command.data.conversationId);
  if (c.status === 'running' || c.queue.length === 0) return [];
  return [turnStarted(c, c.queue[0], command.data.briefing, command.metadata.at)];
}

function queued(c: ExistingConversation, promptId: string): QueuedPrompt {
  const found = c.queue.find((q) => q.promptId === promptId);
  if (!found) {
    throw new DomainError(
      ErrorCode.NotFound,
      `prompt ${promptId} is not in the queue: it has been sent already, was dropped, or never existed`,
      { conversationId: c.conversationId, promptId },
    );
  }
  return found;
}

function edit(command: EditQueuedPrompt, state: ConversationState): ConversationEvent[] {
  const { data, metadata } = command;
  const c = existingConversation(state, data.conversationId);
  const prompt = queued(c, data.promptId);
  const text = validPromptText(data.text);
  if (text === prompt.text) return [];
  const event = {
    conversationId: c.conversationId,
    promptId: prompt.promptId,
    text,
    previousText: prompt.text,
    at: metadata.at,
  };
  return [{ type: 'QueuedPromptEdited', data: event }];
}

function drop(command: DropQueuedPrompt, state: ConversationState): ConversationEvent[] {
  const { data, metadata } = command;
  const c = existingConversation(state, data.conversationId);
  const prompt = queued(c, data.promptId);
  const event = {
    conversationId: c.conversationId,
    promptId: prompt.promptId,
    text: prompt.text,
    at: metadata.at,
  };
  return [{ type: 'QueuedPromptDropped', data: event }];
}

function decide(command: ConversationCommand, state: ConversationState): ConversationEvent[] {
  switch (command.type) {
    case 'SubmitPrompt':
      return submit(command, state);
    case 'StartNextTurn':
      return startNext(command, state);
    case 'RecordHarnessOutput':
      return recordOutput(command, state);
    case 'InterruptTurn':
      return interrupt(command, state);
    case 'FailTurn':
      return fail(command, state);
    case 'EditQueuedPrompt':
      return edit(command, state);
    case 'DropQueuedPrompt':
      return drop(command, state);
    default:
      return assertNever(command);
  }
}

function evolve(state: ConversationState, event: ConversationEvent): ConversationState {
  if (event.type === 'ConversationStarted') return startedState(event);
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'PromptQueued': {
      const { promptId, text, model, from, hop, at } = event.data;
      return { ...state, queue: [...state.queue, { promptId, text, model, from, hop, at }] };
    }
    case 'QueuedPromptEdited': {
      const { promptId, text } = event.data;
      return {
        ...state,
        queue: state.queue.map((q) => (q.promptId === promptId ? { ...q, text } : q)),
      };
    }
    case 'QueuedPromptDropped':
      return { ...state, queue: state.queue.filter((q) => q.promptId !== event.data.promptId) };
    case 'HarnessOutputsLost':
      return { ...state, outputs: event.data.resumeAt };
    case 'HarnessSessionNoted':
      return {
        ...state,
        harnessSessionId: event.data.harnessSessionId,
        outputs: state.outputs + 1,
      };
    case 'TurnStarted': {
      const { turn, seq, model, promptId, from, hop } = event.data;
      const queue = state.queue.filter((q) => q.promptId !== promptId);
      const running = { from, hop };
      return { ...state, status: 'running', turn, seq, model, outputs: 0, queue, running };
    }
    case 'TurnFinished':
      return {
        ...state,
        status: 'idle',
        seq: event.data.seq,
        outputs: state.outputs + 1,
        running: null,
      };
    case 'AgentMessaged':
    case 'AgentToolCalled':
    case 'AgentToolReturned':
    case 'AgentErrored':
      return { ...state, seq: event.data.seq, outputs: state.outputs + 1 };
    default:
      return assertNever(event);
  }
}

export const conversationDecider: Decider<
  ConversationCommand,
  ConversationEvent,
  ConversationState
> = {
  decide,
  evolve,
  initialState: initialConversationState,
};
