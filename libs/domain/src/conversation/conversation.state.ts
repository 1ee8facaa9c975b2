import { DomainError, ErrorCode, type Actor } from '../kernel';
import type { HarnessName } from '../limits';
import type { ConversationOwner } from './conversation.events';

export interface QueuedPrompt {
  promptId: string;
  text: string;
  model: string | null;
  from: Actor;
  hop: number;
  at: string;
}

/** Only what `decide` needs: whether a turn runs, the queue, and the counters. */
export type ConversationState =
  | { status: 'absent' }
  | {
      status: 'idle' | 'running';
      conversationId: string;
      owner: ConversationOwner;
      harness: HarnessName;
      model: string;
      /** The last turn's number (the running one while running); 0 before the first. */
      turn: number;
      /** The last spec-shaped event's seq. */
      seq: number;
      /** Harness outputs recorded for the running turn (the next expected `fromIndex`). */
      outputs: number;
      queue: readonly QueuedPrompt[];
      harnessSessionId: string | null;
      /** The running turn's prompt: who sent it and its hop (null when idle). */
      running: { from: Actor; hop: number } | null;
    };

export type ExistingConversation = Exclude<ConversationState, { status: 'absent' }>;

export const initialConversationState: ConversationState = { status: 'absent' };

export function existingConversation(
  state: ConversationState,
  conversationId: string,
): ExistingConversation {
  if (state.status === 'absent') {
    throw new DomainError(ErrorCode.NotFound, `conversation ${conversationId} does not exist`, {
      conversationId,
    });
  }
  return state;
}
