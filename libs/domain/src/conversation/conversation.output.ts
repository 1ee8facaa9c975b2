import { DomainError, ErrorCode } from '../kernel';
import { integer, invalid } from '../kernel/validation';
import type {
  FailTurn,
  HarnessOutput,
  InterruptTurn,
  RecordHarnessOutput,
} from './conversation.commands';
import type { ConversationEvent, SequencedConversationEvent } from './conversation.events';
import { existingConversation, type ExistingConversation } from './conversation.state';
import { OUTPUT_BATCH_MAX, validErrorReport, validOutput } from './conversation.validation';

/** Turns one harness output into its event, numbered after `seq`. */
function toEvent(
  c: ExistingConversation,
  output: HarnessOutput,
  seq: number,
  at: string,
): ConversationEvent {
  const base = { conversationId: c.conversationId, seq, at, turn: c.turn };
  switch (output.type) {
    case 'message':
      return { type: 'AgentMessaged', data: { ...base, text: output.text } };
    case 'tool_call': {
      const { id, name, input } = output;
      return { type: 'AgentToolCalled', data: { ...base, id, name, input } };
    }
    case 'tool_result': {
      const { id, output: text, error } = output;
      return { type: 'AgentToolReturned', data: { ...base, id, output: text, error } };
    }
    case 'error':
      return {
        type: 'AgentErrored',
        data: { ...base, code: output.code, message: output.message },
      };
    case 'turn_finished': {
      const { status, input_tokens, output_tokens, usage, context, cost_usd } = output;
      const data = { ...base, status, input_tokens, output_tokens, usage, context };
      return { type: 'TurnFinished', data: cost_usd === undefined ? data : { ...data, cost_usd } };
    }
    case 'harness_session': {
      const data = { conversationId: c.conversationId, harnessSessionId: output.id, at };
      return { type: 'HarnessSessionNoted', data };
    }
  }
}

/**
 * Output is taken only for the running turn: a box reports what the harness it was given runs,
 * so output of any other turn (one that ended: interrupted, failed, finished; one that never
 * ran) is refused, saying which turn runs, and nothing of it is recorded.
 */
function notRunning(c: ExistingConversation, turn: number): DomainError {
  const now =
    c.status === 'running'
      ? `turn ${c.turn} is the running one`
      : c.turn === 0
        ? 'no turn has run yet'
        : `turn ${c.turn} has ended and none runs`;
  return new DomainError(
    ErrorCode.InvalidState,
    `output of turn ${turn} is not taken: ${now}; only the running turn's harness reports output`,
    { conversationId: c.conversationId, turn, runningTurn: c.status === 'running' ? c.turn : null },
  );
}

/**
 * Records a harness's outputs for the running turn. Outputs already recorded (a resend) are
 * skipped by index; nothing after turn_finished is kept.
 */
export function recordOutput(
  command: RecordHarnessOutput,
  state: ExistingConversation | { status: 'absent' },
): ConversationEvent[] {
  const { data, metadata } = command;
  const c = existingConversation(state, data.conversationId);
  const turn = integer(data.turn, 'turn', 1, Number.MAX_SAFE_INTEGER);
  const fromIndex = integer(data.fromIndex, 'fromIndex', 0, Number.MAX_SAFE_INTEGER);
  if (!Array.isArray(data.outputs) || data.outputs.length > OUTPUT_BATCH_MAX) {
    throw invalid('outputs', `outputs must be a list of at most ${OUTPUT_BATCH_MAX} items`);
  }
  const outputs = data.outputs.map((o, i) => validOutput(o, i));
  if (c.status !== 'running' || turn !== c.turn) throw notRunning(c, turn);
  const events: ConversationEvent[] = [];
  let seq = c.seq;
  if (fromIndex > c.outputs) {
    // Refusing would wedge the turn (every later batch would be refused too): say what was
    // lost, number on from where the harness is, and keep what did arrive.
    const { conversationId } = c;
    const missing =
      fromIndex - c.outputs === 1 ? `output ${c.outputs}` : `outputs ${c.outputs}–${fromIndex - 1}`;
    const message = `${missing} of turn ${turn} never reached Sessionboxer (the box was cut off for too long); what follows is kept`;
    const base = { conversationId, seq: ++seq, at: metadata.at, turn };
    events.push({ type: 'AgentErrored', data: { ...base, code: 'outputs_lost', message } });
    const lost = { conversationId, turn, from: c.outputs, resumeAt: fromIndex, at: metadata.at };
    events.push({ type: 'HarnessOutputsLost', data: lost });
  }
  const fresh = outputs.slice(Math.max(0, c.outputs - fromIndex));
  for (const output of fresh) {
    const event = toEvent(c, output, output.type === 'harness_session' ? seq : ++seq, metadata.at);
    events.push(event);
    if (event.type === 'TurnFinished') break;
  }
  return events;
}

function finished(
  c: ExistingConversation,
  status: 'interrupted' | 'failed',
  seq: number,
  at: string,
): SequencedConversationEvent {
  const data = { conversationId: c.conversationId, seq, at, turn: c.turn, status };
  const counts = { input_tokens: 0, output_tokens: 0, usage: null, context: null };
  return { type: 'TurnFinished', data: { ...data, ...counts } };
}

export function interrupt(
  command: InterruptTurn,
  state: ExistingConversation | { status: 'absent' },
) {
  const c = existingConversation(state, command.data.conversationId);
  if (c.status !== 'running') {
    throw new DomainError(
      ErrorCode.InvalidState,
      'no turn is running, so there is nothing to interrupt',
      {
        conversationId: c.conversationId,
        turn: c.turn,
      },
    );
  }
  return [finished(c, 'interrupted', c.seq + 1, command.metadata.at)];
}

/** Fails `turn` if it is still the running one; a turn that has ended stays as it ended. */
export function fail(command: FailTurn, state: ExistingConversation | { status: 'absent' }) {
  const { data, metadata } = command;
  const c = existingConversation(state, data.conversationId);
  if (c.status !== 'running' || data.turn !== c.turn) return [];
  const error = validErrorReport(data.code, data.message);
  const base = { conversationId: c.conversationId, seq: c.seq + 1, at: metadata.at, turn: c.turn };
  const errored: SequencedConversationEvent = {
    type: 'AgentErrored',
    data: { ...base, code: error.code, message: error.message },
  };
  return [errored, finished(c, 'failed', c.seq + 2, metadata.at)];
}
