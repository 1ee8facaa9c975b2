import type { PromptReceipt } from '@sessionboxer/contracts';
import { Inject, Injectable } from '@nestjs/common';
import {
  conversationDecider,
  conversationStream,
  DomainError,
  ErrorCode,
  type Actor,
  type ConversationCommand,
  type ConversationState,
  type TurnStarted,
} from '@sessionboxer/domain';
import { deterministicUuid, type CommandResult } from '@sessionboxer/event-store';
import {
  conversationQueries,
  sidebarQueries,
  type ConversationDoc,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { IdGenerator } from '../infrastructure/clock';
import { CommandBus } from '../infrastructure/command-bus';
import { READ_MODELS } from '../infrastructure/tokens';
import { harnessOf, sessionConversationId } from './agent-harness';
import { briefing, type BriefingInput } from './briefing';
import { forkContextOf } from './fork-context';

export interface PromptInput {
  text: string;
  model?: string | null;
  from: Actor;
  /** An idempotency key (an HTTP Idempotency-Key, a box's callId): a retry sends one prompt. */
  key?: string;
  /** Always queue, even when the agent is idle (queue_add asks for a next turn). */
  queue?: boolean;
  /** Agents prompting agents: how many hops this prompt is (0: a person's). */
  hop?: number;
}

export type { PromptReceipt };

/** A command on a conversation and what it started, if it started a turn. */
export interface ConversationChange {
  result: CommandResult<ConversationState>;
  started: TurnStarted['data'] | null;
}

/**
 * The command side of a session's agent conversation: prompts, the queue, interrupts, and
 * the harness's outputs. Who sends a prompt is the caller's business; the conversation only
 * records it (the sandbox API will send prompts through the same commands).
 */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly ids: IdGenerator,
  ) {}

  /** Sends a prompt to the session's agent: a turn starts now, or the prompt is queued. */
  async submit(
    sessionId: string,
    input: PromptInput,
  ): Promise<ConversationChange & { receipt: PromptReceipt }> {
    const session = this.session(sessionId);
    const conversationId = sessionConversationId(sessionId);
    const metadata = this.bus.metadata(input.from, input.key && `prompt/${sessionId}/${input.key}`);
    const promptId = input.key
      ? deterministicUuid(`prompt/${metadata.commandId}`)
      : this.ids.next();
    const change = await this.execute(conversationId, {
      type: 'SubmitPrompt',
      data: {
        conversationId,
        owner: { kind: 'session', sessionId },
        harness: harnessOf(session.provider),
        promptId,
        text: input.text,
        model: input.model ?? (session.model === 'default' ? null : session.model),
        from: input.from,
        hop: input.hop ?? 0,
        briefing: this.briefingOf(session, conversationId),
        queue: input.queue === true || session.status === 'stopped',
      },
      metadata,
    });
    const doc = this.conversation(conversationId);
    const position = doc ? doc.queue.findIndex((q) => q.id === promptId) + 1 : 0;
    const receipt: PromptReceipt = {
      conversationId,
      promptId,
      status: position > 0 ? 'queued' : 'running',
      turn: change.started?.turn ?? (position > 0 ? null : (doc?.currentTurn ?? null)),
      position,
    };
    return { ...change, receipt };
  }

  /** Starts the next queued prompt's turn when none runs (after a turn, on resume). */
  startNext(sessionId: string, actor: Actor): Promise<ConversationChange> {
    const session = this.session(sessionId);
    const conversationId = sessionConversationId(sessionId);
    return this.execute(conversationId, {
      type: 'StartNextTurn',
      data: { conversationId, briefing: this.briefingOf(session, conversationId) },
      metadata: this.bus.metadata(actor),
    });
  }

  interrupt(sessionId: string, actor: Actor, key?: string): Promise<ConversationChange> {
    this.session(sessionId);
    const conversationId = sessionConversationId(sessionId);
    if (!this.conversation(conversationId)) {
      throw new DomainError(
        ErrorCode.InvalidState,
        "this session's agent has had no turn yet, so there is nothing to interrupt",
      );
    }
    return this.execute(conversationId, {
      type: 'InterruptTurn',
      data: { conversationId },
      metadata: this.bus.metadata(actor, key && `interrupt/${sessionId}/${key}`),
    });
  }

  async editQueued(
    sessionId: string,
    promptId: string,
    text: string,
    actor: Actor,
  ): Promise<ConversationDoc> {
    const conversationId = this.existingConversation(sessionId);
    await this.execute(conversationId, {
      type: 'EditQueuedPrompt',
      data: { conversationId, promptId, text },
      metadata: this.bus.metadata(actor),
    });
    return this.conversation(conversationId) as ConversationDoc;
  }

  async dropQueued(sessionId: string, promptId: string, actor: Actor): Promise<ConversationDoc> {
    const conversationId = this.existingConversation(sessionId);
    await this.execute(conversationId, {
      type: 'DropQueuedPrompt',
      data: { conversationId, promptId },
      metadata: this.bus.metadata(actor),
    });
    return this.conversation(conversationId) as ConversationDoc;
  }

  /** Runs one conversation command; `wait: false` skips read-your-writes (box frames). */
  async execute(
    conversationId: string,
    command: ConversationCommand,
    options: { wait?: boolean } = {},
  ): Promise<ConversationChange> {
    const result = await this.bus.execute(
      conversationDecider,
      conversationStream(conversationId),
      command,
      options,
    );
    const started = result.replayed
      ? undefined
      : result.events.find((e) => e.type === 'TurnStarted');
    return { result, started: started ? (started.data as TurnStarted['data']) : null };
  }

  waitFor(position: number): Promise<void> {
    return this.bus.waitFor(position);
  }

  metadata(actor: Actor, key?: string) {
    return this.bus.metadata(actor, key);
  }

  conversation(conversationId: string): ConversationDoc | null {
    return conversationQueries(this.readModels).get(conversationId);
  }

  /** The session's conversation, or null before its first prompt. */
  ofSession(sessionId: string): ConversationDoc | null {
    return this.conversation(sessionConversationId(sessionId));
  }

  private existingConversation(sessionId: string): string {
    this.session(sessionId);
    const conversationId = sessionConversationId(sessionId);
    if (!this.conversation(conversationId)) {
      throw new DomainError(
        ErrorCode.NotFound,
        "this session's agent has no queue yet: it has had no prompt",
        { sessionId },
      );
    }
    return conversationId;
  }

  /**
   * What the first turn is told before its prompt: the briefing, and for a fork from a turn
   * the conversation it continues (recorded in its TurnStarted, so what the agent was told is
   * in the history). Later turns are told nothing (the decider's rule): not worked out then.
   */
  private briefingOf(session: { id: string } & BriefingInput, conversationId: string): string {
    if ((this.conversation(conversationId)?.turns ?? 0) > 0) return briefing(session);
    const context = forkContextOf(this.readModels, session.id);
    return context === null ? briefing(session) : `${briefing(session)}\n\n${context}`;
  }

  private session(sessionId: string) {
    const s = sidebarQueries(this.readModels).get(sessionId);
    if (!s)
      throw new DomainError(ErrorCode.NotFound, `session ${sessionId} does not exist`, {
        sessionId,
      });
    return s;
  }
}
