import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain/kernel';
import {
  AGENT_WAIT_DEFAULT_SECONDS,
  decideAgentPrompt,
  HARNESS_OF,
  refusal,
  type AgentPromptArgs,
} from '@sessionboxer/domain/sandbox';
import {
  conversationEventQueries,
  type ConversationDoc,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import type { SandboxDoc } from '@sessionboxer/projections/sandboxes.projection';
import { ConversationsService } from '../agent';
import type { KeyIdentity } from '../api-keys';
import type { AppConfig } from '../config';
import { IdGenerator } from '../infrastructure/clock';
import { APP_CONFIG, READ_MODELS } from '../infrastructure/tokens';
import { agentEvent, conversationStatus, conversationView } from './sandbox-agent-view';
import { SandboxBoxes } from './sandbox-boxes';
import { eventsAfter, sandboxConversations } from './sandbox-conversations';
import { SandboxSecrets } from './sandbox-secrets';
import { SandboxTurns } from './sandbox-turns';
import { actorOf, Sandboxes } from './sandboxes.service';

const POLL_MS = 50;

/**
 * agent_prompt and agent_conversations: a sandbox's coding agents over the conversation model
 * (the same commands and read models as a session's agent), their turns run by SandboxTurns.
 */
@Injectable()
export class SandboxAgents {
  constructor(
    private readonly sandboxes: Sandboxes,
    private readonly boxes: SandboxBoxes,
    private readonly conversations: ConversationsService,
    private readonly turns: SandboxTurns,
    private readonly secrets: SandboxSecrets,
    private readonly ids: IdGenerator,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private readonly deciding = new Map<string, Promise<void>>();

  async prompt(
    caller: KeyIdentity,
    args: AgentPromptArgs & { sandbox: string; wait_seconds?: number },
  ) {
    const doc = this.sandboxes.running(caller, args.sandbox);
    // One prompt of a sandbox decided at a time (in this instance): racing prompts see each
    // other's conversations, so the per-size cap holds.
    const { conversationId, promptId, before } = await this.serially(doc.id, () =>
      this.submit(caller, doc, args),
    );
    const wait = (args.wait_seconds ?? AGENT_WAIT_DEFAULT_SECONDS) * 1000;
    return this.answer(conversationId, promptId, before, performance.now() + wait);
  }

  private serially<T>(sandboxId: string, fn: () => Promise<T>): Promise<T> {
    const prior = this.deciding.get(sandboxId) ?? Promise.resolve();
    const next = prior.then(fn, fn);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.deciding.set(sandboxId, settled);
    void settled.then(() => {
      if (this.deciding.get(sandboxId) === settled) this.deciding.delete(sandboxId);
    });
    return next;
  }

  private async submit(caller: KeyIdentity, doc: SandboxDoc, args: AgentPromptArgs) {
    const s = doc.settings!;
    const all = await this.current(doc.id);
    const facts = all.map((c) => ({
      id: c.id,
      harness: c.harness,
      active: c.currentTurn !== null || c.queued > 0,
      queued: c.queued,
      updatedAt: c.updatedAt,
    }));
    const target = decideAgentPrompt(args, { size: s.size, secrets: s.secrets }, facts, {
      scripted: this.config.sandboxScripted,
    });
    const harness = HARNESS_OF[target.harness];
    if (this.turns.harnesses.executable(harness) === null) {
      throw refusal(
        'agent_unavailable',
        ErrorCode.Unavailable,
        `${target.harness} is not installed on this Sessionboxer, so no sandbox can run it`,
        { harness: target.harness },
      );
    }
    await this.boxes.ensureRunning(doc.id);
    await this.secrets.env(doc.id, s.orgId, s.environment, s.secrets);
    const conversationId = target.conversationId ?? this.ids.next();
    const before = this.conversations.conversation(conversationId)?.lastSeq ?? 0;
    const promptId = this.ids.next();
    const actor = actorOf(caller);
    const change = await this.conversations.execute(conversationId, {
      type: 'SubmitPrompt',
      data: {
        conversationId,
        owner: { kind: 'sandbox', sandboxId: doc.id },
        harness,
        promptId,
        // Never a secret's value in an event, not even one the prompt carries.
        text: this.secrets.mask(doc.id, args.prompt),
        model: target.model,
        from: actor,
        hop: 0,
        briefing: null,
      },
      metadata: this.conversations.metadata(actor),
    });
    this.turns.started(doc, change);
    return { conversationId, promptId, before };
  }

  /** The sandbox's conversations, a turn a restart took failed first. */
  private async current(sandboxId: string): Promise<ConversationDoc[]> {
    const all = sandboxConversations(this.readModels, sandboxId);
    const lost = all.filter((c) => c.currentTurn !== null && !this.turns.running(c.id));
    if (lost.length === 0) return all;
    for (const c of lost) await this.turns.recover(sandboxId, c);
    return sandboxConversations(this.readModels, sandboxId);
  }

  /** The prompt's turn so far, once it has ended or the wait is over. */
  private async answer(conversationId: string, promptId: string, before: number, until: number) {
    for (;;) {
      const events = eventsAfter(this.readModels, conversationId, before);
      const prompt = events.find((e) => e.type === 'prompt' && e.promptId === promptId);
      const mine = prompt
        ? events.filter((e) => e.turn === prompt.turn && e.seq >= prompt.seq)
        : [];
      const end = mine.find((e) => e.type === 'turn_finished');
      const over = performance.now() >= until;
      if (end || over) {
        const status = end?.type === 'turn_finished' ? end.status : prompt ? 'running' : 'queued';
        return {
          conversation: conversationId,
          turn: prompt?.turn ?? this.queuedTurn(conversationId, promptId),
          status,
          events: mine.map(agentEvent),
          next_after: mine.length > 0 ? mine[mine.length - 1].seq : before,
        };
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** The turn a queued prompt will be: the conversation runs its queue in order. */
  private queuedTurn(conversationId: string, promptId: string): number {
    const doc = this.conversations.conversation(conversationId);
    if (!doc) return 1;
    return doc.turns + doc.queue.findIndex((q) => q.id === promptId) + 1;
  }

  /** For people (the web UI's transcripts): a conversation's events as the transcript has them. */
  transcript(caller: KeyIdentity, sandbox: string, conversationId: string, after: number) {
    const doc = this.sandboxes.resolve(caller, sandbox);
    const conversation = sandboxConversations(this.readModels, doc.id).find(
      (c) => c.id === conversationId,
    );
    if (!conversation) {
      throw refusal(
        'conversation_not_found',
        ErrorCode.NotFound,
        `no conversation ${conversationId}`,
      );
    }
    const page = conversationEventQueries(this.readModels).page(conversation.id, {
      afterSeq: after,
      limit: 500,
    });
    return {
      conversation: conversationView(conversation),
      events: page.events,
      next_after: page.events.at(-1)?.seq ?? after,
    };
  }

  async conversationsOf(
    caller: KeyIdentity,
    args: { sandbox: string; conversation?: string; after?: number },
  ) {
    const doc = this.sandboxes.resolve(caller, args.sandbox);
    const all = await this.current(doc.id);
    if (args.conversation === undefined) {
      if (args.after !== undefined) {
        throw refusal('invalid_argument', ErrorCode.ValidationFailed, 'after needs conversation', {
          field: 'after',
        });
      }
      return { conversations: all.map(conversationView) };
    }
    const conversation = all.find((c) => c.id === args.conversation);
    if (!conversation) {
      throw refusal(
        'conversation_not_found',
        ErrorCode.NotFound,
        `this sandbox has no conversation ${args.conversation}; call agent_conversations without conversation to list them`,
        { field: 'conversation' },
      );
    }
    const after = args.after ?? 0;
    const page = conversationEventQueries(this.readModels).page(conversation.id, {
      afterSeq: after,
      limit: 500,
    });
    const events = page.events.map(agentEvent);
    return {
      events,
      status: conversationStatus(conversation),
      next_after: events.length > 0 ? events[events.length - 1].seq : after,
    };
  }
}
