import {
  assertNever,
  isConversationEvent,
  isSequencedEvent,
  SEQUENCED_EVENT_TYPES,
  type SequencedConversationEvent,
} from '@sessionboxer/domain';
import type { SpecConversationEvent } from '@sessionboxer/contracts';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

// An event as the spec's agent_conversations API (and the transcript) gives it: the wire's.
export type { SpecConversationEvent };

/** A conversation's event with where it sits: its session (for a session's agent) and position. */
export interface ConversationEventDoc {
  /** The recorded event's id. */
  id: string;
  conversationId: string;
  sessionId: string | null;
  position: number;
  event: SpecConversationEvent;
}

/** Which session a conversation belongs to, written at its start so its events can say it. */
interface ConversationOwnerIndex {
  conversationId: string;
  sessionId: string | null;
}

type StoredDoc = ConversationEventDoc | ConversationOwnerIndex;

function isEventDoc(doc: StoredDoc): doc is ConversationEventDoc {
  return 'event' in doc;
}

// No conversation id is empty (the domain's exactId), so no page ever lists the index.
const INDEX_PARTITION = '';
// Events are keyed by (conversation, seq) so a page can find its cursor's position with one
// `get`; the index's key, ending in a part that is no number, can be no event's.
const indexKey = (conversationId: string) => docId(conversationId, 'owner');
const eventKey = (conversationId: string, seq: number) => docId(conversationId, String(seq));

/** The spec's shape of a sequenced event: its type name, without the conversation id. */
export function specEvent(event: SequencedConversationEvent): SpecConversationEvent {
  const { seq, at, turn } = event.data;
  const base = { seq, at, turn };
  switch (event.type) {
    case 'TurnStarted': {
      const { text, model, promptId, from, briefing } = event.data;
      return { type: 'prompt', ...base, text, model, promptId, from, briefing };
    }
    case 'AgentMessaged':
      return { type: 'message', ...base, text: event.data.text };
    case 'AgentToolCalled': {
      const { id, name, input } = event.data;
      return { type: 'tool_call', ...base, id, name, input };
    }
    case 'AgentToolReturned': {
      const { id, output, error } = event.data;
      return { type: 'tool_result', ...base, id, output, error };
    }
    case 'AgentErrored':
      return { type: 'error', ...base, code: event.data.code, message: event.data.message };
    case 'TurnFinished': {
      const { status, input_tokens, output_tokens, usage, context, cost_usd } = event.data;
      const priced = cost_usd === undefined ? {} : { cost_usd };
      return {
        type: 'turn_finished',
        ...base,
        status,
        input_tokens,
        output_tokens,
        usage,
        context,
        ...priced,
      };
    }
    default:
      return assertNever(event);
  }
}

function apply(
  event: RecordedEvent,
  get: (id: string) => StoredDoc | null,
): DocumentChange<StoredDoc>[] {
  if (isConversationEvent(event) && event.type === 'ConversationStarted') {
    const { conversationId, owner } = event.data;
    const sessionId = owner.kind === 'session' ? owner.sessionId : null;
    const doc = { conversationId, sessionId };
    return [
      { id: indexKey(conversationId), partition: INDEX_PARTITION, order: event.position, doc },
    ];
  }
  if (!isSequencedEvent(event)) return [];
  const { conversationId, seq } = event.data;
  const index = get(indexKey(conversationId));
  const doc: ConversationEventDoc = {
    id: event.id,
    conversationId,
    sessionId: index === null || isEventDoc(index) ? null : index.sessionId,
    position: event.position,
    event: specEvent(event),
  };
  return [
    { id: eventKey(conversationId, seq), partition: conversationId, order: event.position, doc },
  ];
}

/** Every spec event of every conversation, in the order they happened. */
export const conversationEventsProjection: Projection<StoredDoc> = {
  name: 'conversation_events',
  // 2: a turn's cost, when its CLI reports one.
  version: 2,
  handles: ['ConversationStarted', ...SEQUENCED_EVENT_TYPES],
  apply,
};

/**
 * A conversation's events after a global position (exclusive), oldest first; every one when
 * `limit` is left out. What the session transcript merges with the markers.
 */
export function listConversationEvents(
  reader: ReadModelReader,
  conversationId: string,
  options: { after?: number; limit?: number } = {},
): ConversationEventDoc[] {
  const docs = reader.list(conversationEventsProjection, { partition: conversationId, ...options });
  return docs.map((d) => d.doc).filter(isEventDoc);
}

export interface ConversationEventPage {
  events: SpecConversationEvent[];
  /** Pass as `afterSeq` for the next page; null when this page was the last. */
  next_after: number | null;
}

export const CONVERSATION_EVENT_PAGE_MAX = 500;

/** The spec's view of a conversation's events. Read-only. */
export interface ConversationEventQueries {
  /** Events with a seq above `afterSeq` (exclusive; 0 or none: from the first), oldest first;
   *  limit 1–500, default 100. */
  page(
    conversationId: string,
    options?: { afterSeq?: number; limit?: number },
  ): ConversationEventPage;
}

/**
 * Events after a seq. Inside a conversation seq grows with position, so the cursor's event
 * gives the position to list after: one `get` and one indexed range read of `limit` rows.
 * A cursor that names no event (past the end, or no whole number) falls back to reading the
 * conversation's every event and filtering on seq, so it is still right, only slower.
 */
function eventsAfterSeq(
  reader: ReadModelReader,
  conversationId: string,
  afterSeq: number | undefined,
  limit: number,
): ConversationEventDoc[] {
  if (afterSeq === undefined || !(afterSeq >= 1)) {
    return listConversationEvents(reader, conversationId, { limit });
  }
  const cursor = reader.get(conversationEventsProjection, eventKey(conversationId, afterSeq));
  if (cursor !== null && isEventDoc(cursor)) {
    return listConversationEvents(reader, conversationId, { after: cursor.position, limit });
  }
  const all = listConversationEvents(reader, conversationId);
  return all.filter((d) => d.event.seq > afterSeq).slice(0, limit);
}

export function conversationEventQueries(reader: ReadModelReader): ConversationEventQueries {
  return {
    page(conversationId, options = {}) {
      const limit = Math.min(Math.max(1, options.limit ?? 100), CONVERSATION_EVENT_PAGE_MAX);
      const docs = eventsAfterSeq(reader, conversationId, options.afterSeq, limit + 1);
      const events = docs.slice(0, limit).map((d) => d.event);
      const next_after = docs.length > limit ? events[events.length - 1].seq : null;
      return { events, next_after };
    },
  };
}
