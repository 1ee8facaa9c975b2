import { specHarness } from '@sessionboxer/domain/sandbox';
import type { ConversationDoc, SpecConversationEvent } from '@sessionboxer/projections';

/**
 * A conversation's event with exactly the spec's fields: seq, at, turn and those of its type
 * (prompt: text, model; message: text; tool_call: id, name, input; tool_result: id, output,
 * error; turn_finished: status, input_tokens, output_tokens; error: code, message).
 */
export type AgentEvent = { type: string; seq: number; at: string; turn: number } & Record<
  string,
  unknown
>;

export function agentEvent(e: SpecConversationEvent): AgentEvent {
  const base = { type: e.type, seq: e.seq, at: e.at, turn: e.turn };
  switch (e.type) {
    case 'prompt':
      return { ...base, text: e.text, model: e.model };
    case 'message':
      return { ...base, text: e.text };
    case 'tool_call':
      return { ...base, id: e.id, name: e.name, input: e.input };
    case 'tool_result':
      return { ...base, id: e.id, output: e.output, error: e.error };
    case 'turn_finished':
      return {
        ...base,
        status: e.status,
        input_tokens: e.input_tokens,
        output_tokens: e.output_tokens,
      };
    case 'error':
      return { ...base, code: e.code, message: e.message };
  }
}

/** idle, running, queued (a prompt waits, no turn runs), failed or interrupted. */
export function conversationStatus(doc: ConversationDoc): string {
  if (doc.currentTurn !== null) return 'running';
  if (doc.queued > 0) return 'queued';
  return doc.status;
}

/** One conversation in agent_conversations' list (the spec's fields). */
export function conversationView(doc: ConversationDoc) {
  return {
    id: doc.id,
    harness: specHarness(doc.harness),
    model: doc.model,
    status: conversationStatus(doc),
    turns: doc.turns,
    queued: doc.queued,
    preview: doc.preview,
    created_at: doc.createdAt,
    updated_at: doc.updatedAt,
  };
}
