import type { QueuedPrompt } from '@sessionboxer/contracts';
import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type Actor } from '@sessionboxer/domain';
import type { ConversationDoc } from '@sessionboxer/projections';
import { sessionConversationId } from './agent-harness';
import {
  ConversationsService,
  type PromptInput,
  type PromptReceipt,
} from './conversations.service';
import { TurnDispatcher } from './turn-dispatcher';

/** A queued prompt as people and agents see it (the contracts' QueuedPrompt). */
export type QueuedPromptView = QueuedPrompt;

/**
 * A session's agent as the admin API, the sessionboxer tools and the session's lifecycle use
 * it: prompts, the queue, interrupts. Every change is a conversation command; this only adds
 * getting a started turn to the box and the next prompt going once a turn ends.
 */
@Injectable()
export class SessionAgent {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly dispatcher: TurnDispatcher,
  ) {}

  async prompt(sessionId: string, input: PromptInput): Promise<PromptReceipt> {
    const change = await this.conversations.submit(sessionId, input);
    if (change.started) await this.dispatcher.started(sessionId, change);
    // A prompt queued while the agent is idle (queue_add, a resume race) must not wait for ever.
    else await this.dispatcher.kick(sessionId);
    return change.receipt;
  }

  /** Ends the running turn as interrupted; the next queued prompt then runs. */
  async interrupt(sessionId: string, actor: Actor, key?: string) {
    const change = await this.conversations.interrupt(sessionId, actor, key);
    const ended = change.result.events.find((e) => e.type === 'TurnFinished');
    const turn = (ended?.data as { turn: number } | undefined)?.turn ?? 0;
    const conversationId = sessionConversationId(sessionId);
    if (ended && !change.result.replayed) {
      this.dispatcher.interruptHarness(sessionId, conversationId, turn);
      await this.dispatcher.ended(sessionId, conversationId);
    }
    return { conversationId, turn, status: 'interrupted' as const };
  }

  /** The session was stopped: its running turn ends, its queue waits for the resume. */
  async stopped(sessionId: string, actor: Actor): Promise<void> {
    if (this.conversations.ofSession(sessionId)?.currentTurn == null) return;
    // Stopped because its box was destroyed: the turn failed with the box; nobody interrupted it.
    if (await this.dispatcher.failIfBoxDestroyed(sessionId)) return;
    await this.interrupt(sessionId, actor).catch((e: unknown) => {
      // A turn that ended meanwhile has nothing left to interrupt.
      if (!(e instanceof DomainError && e.code === ErrorCode.InvalidState)) throw e;
    });
  }

  resumed(sessionId: string): Promise<void> {
    return this.dispatcher.kick(sessionId);
  }

  queue(sessionId: string): QueuedPromptView[] {
    return queueView(this.conversations.ofSession(sessionId));
  }

  async editQueued(sessionId: string, promptId: string, text: string, actor: Actor) {
    return queueView(await this.conversations.editQueued(sessionId, promptId, text, actor));
  }

  async dropQueued(sessionId: string, promptId: string, actor: Actor) {
    return queueView(await this.conversations.dropQueued(sessionId, promptId, actor));
  }

  conversation(sessionId: string): ConversationDoc | null {
    return this.conversations.ofSession(sessionId);
  }
}

export function queueView(doc: ConversationDoc | null): QueuedPromptView[] {
  return (doc?.queue ?? []).map((q, i) => ({
    id: q.id,
    text: q.text,
    position: i + 1,
    model: q.model,
    from: q.from,
    queuedAt: q.at,
  }));
}
