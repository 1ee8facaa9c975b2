import {
  assertNever,
  CONVERSATION_EVENT_TYPES,
  isConversationEvent,
  type Actor,
  type ContextUse,
  type ConversationEvent,
  type ConversationOwner,
  type ConversationStarted,
  type HarnessName,
  type TurnFinished,
} from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';
import { cut } from './text';

/** `running` while a turn runs; after one, how it ended (`idle` when it finished). */
export type ConversationStatus = 'idle' | 'running' | 'failed' | 'interrupted';

/** A prompt waiting for the running turn (and those queued before it). */
export interface QueuedPromptView {
  /** The promptId. */
  id: string;
  text: string;
  /** The model asked for that turn, or null for the conversation's. */
  model: string | null;
  from: Actor;
  at: string;
}

/** A conversation as a list of them, or its header, shows it. */
export interface ConversationDoc {
  id: string;
  owner: ConversationOwner;
  /** The owner's session, or null for a sandbox's conversation. */
  sessionId: string | null;
  harness: HarnessName;
  /** The model later turns run with: the last turn's, as the aggregate keeps it. */
  model: string;
  status: ConversationStatus;
  /** Turns started. */
  turns: number;
  /** The running turn's number, or null. */
  currentTurn: number | null;
  /**
   * The running turn's hop (agents prompting agents: 0 from a person) and the global position
   * of its TurnStarted: the policy its calls run under is the one recorded up to there.
   */
  running: { hop: number; position: number } | null;
  queue: QueuedPromptView[];
  queued: number;
  /** The first prompt's text, cut at PREVIEW_MAX (before any turn: the first queued one's). */
  preview: string | null;
  /** The agent's last message, cut at REPLY_MAX. */
  lastReply: { text: string; at: string; turn: number } | null;
  /** The last usage and context a turn reported (a turn reporting none keeps the earlier). */
  usage: Record<string, unknown> | null;
  context: ContextUse | null;
  /** Summed over every finished turn. */
  tokens: { input: number; output: number };
  /** Dollars, summed over the turns whose CLI reported a cost; null while none did. */
  costUsd: number | null;
  harnessSessionId: string | null;
  /** The seq of the conversation's last spec event (0 before any). */
  lastSeq: number;
  createdAt: string;
  /** `at` of the conversation's last event. */
  updatedAt: string;
}

export const PREVIEW_MAX = 200;
export const REPLY_MAX = 2_000;

/** The partition of an owner's conversations: `session:<id>` or `sandbox:<id>`. */
export function conversationPartition(owner: ConversationOwner): string {
  return owner.kind === 'session' ? `session:${owner.sessionId}` : `sandbox:${owner.sandboxId}`;
}

function started(event: RecordedEvent & ConversationStarted): DocumentChange<ConversationDoc>[] {
  const { conversationId: id, owner, harness, model, at } = event.data;
  const doc: ConversationDoc = {
    id,
    owner,
    sessionId: owner.kind === 'session' ? owner.sessionId : null,
    harness,
    model,
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
    createdAt: at,
    updatedAt: at,
  };
  // Ordered by the start's position, so `forSession` lists the oldest first.
  return [{ id, partition: conversationPartition(owner), order: event.position, doc }];
}

function finished(doc: ConversationDoc, data: TurnFinished['data']): Partial<ConversationDoc> {
  return {
    status: data.status === 'finished' ? 'idle' : data.status,
    currentTurn: null,
    usage: data.usage ?? doc.usage,
    context: data.context ?? doc.context,
    tokens: {
      input: doc.tokens.input + data.input_tokens,
      output: doc.tokens.output + data.output_tokens,
    },
    costUsd: data.cost_usd === undefined ? doc.costUsd : (doc.costUsd ?? 0) + data.cost_usd,
    lastSeq: data.seq,
  };
}

/** The fields an event of an existing conversation changes. */
function changes(
  doc: ConversationDoc,
  event: Exclude<ConversationEvent, ConversationStarted>,
): Partial<ConversationDoc> {
  switch (event.type) {
    case 'PromptQueued': {
      const { promptId: id, text, model, from, at } = event.data;
      return { queue: [...doc.queue, { id, text, model, from, at }] };
    }
    case 'QueuedPromptEdited': {
      const { promptId, text } = event.data;
      return { queue: doc.queue.map((q) => (q.id === promptId ? { ...q, text } : q)) };
    }
    case 'QueuedPromptDropped':
      return { queue: doc.queue.filter((q) => q.id !== event.data.promptId) };
    case 'HarnessSessionNoted':
      return { harnessSessionId: event.data.harnessSessionId };
    case 'HarnessOutputsLost':
      // The AgentErrored before it tells the transcript; nothing here changes.
      return {};
    case 'TurnStarted': {
      const { turn, seq, model, promptId, text } = event.data;
      const queue = doc.queue.filter((q) => q.id !== promptId);
      const preview = doc.turns === 0 ? cut(text, PREVIEW_MAX) : doc.preview;
      return {
        status: 'running',
        turns: turn,
        currentTurn: turn,
        model,
        queue,
        preview,
        lastSeq: seq,
      };
    }
    case 'AgentMessaged': {
      const { text, at, turn, seq } = event.data;
      return { lastReply: { text: cut(text, REPLY_MAX), at, turn }, lastSeq: seq };
    }
    case 'AgentToolCalled':
    case 'AgentToolReturned':
    case 'AgentErrored':
      return { lastSeq: event.data.seq };
    case 'TurnFinished':
      return finished(doc, event.data);
    default:
      return assertNever(event);
  }
}

function apply(
  event: RecordedEvent,
  get: (id: string) => ConversationDoc | null,
): DocumentChange<ConversationDoc>[] {
  if (!isConversationEvent(event)) return [];
  if (event.type === 'ConversationStarted') return started(event);
  const doc = get(event.data.conversationId);
  // An event of a conversation never started changes nothing (a valid log has none).
  if (doc === null) return [];
  const next = { ...doc, ...changes(doc, event), updatedAt: event.data.at };
  if (event.type === 'TurnStarted')
    next.running = { hop: event.data.hop, position: event.position };
  else if (next.currentTurn === null) next.running = null;
  next.queued = next.queue.length;
  // Until a turn has run, the preview is the prompt that waits first (edits and drops show).
  if (next.turns === 0)
    next.preview = next.queue.length === 0 ? null : cut(next.queue[0].text, PREVIEW_MAX);
  return [{ id: doc.id, doc: next }];
}

export const conversationsProjection: Projection<ConversationDoc> = {
  name: 'conversations',
  // 3: the cost summed over the turns that reported one.
  version: 3,
  handles: CONVERSATION_EVENT_TYPES,
  apply,
};

/** The conversations read model. Read-only. */
export interface ConversationQueries {
  get(id: string): ConversationDoc | null;
  /** The session's conversations, oldest first. */
  forSession(sessionId: string): ConversationDoc[];
  /** The prompts waiting, in order; null when there is no such conversation. */
  queue(id: string): QueuedPromptView[] | null;
}

export function conversationQueries(reader: ReadModelReader): ConversationQueries {
  const get = (id: string) => reader.get(conversationsProjection, id);
  return {
    get,
    forSession(sessionId) {
      const partition = conversationPartition({ kind: 'session', sessionId });
      return reader.list(conversationsProjection, { partition }).map((d) => d.doc);
    },
    queue: (id) => get(id)?.queue ?? null,
  };
}
