import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { Actor, TurnStarted } from '@sessionboxer/domain';
import type { TurnStartPush } from '@sessionboxer/mcp-adapters';
import {
  conversationQueries,
  sessionDetailsQueries,
  sidebarQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { DaemonChannel } from '../boxes';
import { BoxOwnership, OwnerRpc } from '../cluster';
import type { AppConfig } from '../config';
import { ProviderRelay } from '../provider-relay';
import { APP_CONFIG, READ_MODELS } from '../infrastructure/tokens';
import { sessionConversationId } from './agent-harness';
import { ConversationsService, type ConversationChange } from './conversations.service';

const SYSTEM: Actor = { kind: 'system', id: 'turn-dispatcher' };
/** How long, after a restart, a running turn's box has to say its harness still runs. */
const RECOVERY_GRACE_MS = 10_000;

/**
 * Gets each started turn to its box's daemon and the next queued prompt going when a turn
 * ends. Turns are facts in the conversation; this only tracks which of them were handed to a
 * daemon by this process, so a turn whose harness is gone (a restart) fails with a clear
 * error instead of hanging.
 */
@Injectable()
export class TurnDispatcher implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Turns');
  /** conversation → the turn pushed to its daemon. */
  private readonly pushed = new Map<string, number>();
  /** conversation → a turn started while its box was not connected, to push at its hello. */
  private readonly waiting = new Map<string, TurnStartPush>();
  /** Turns that were running when this process started, until their box says otherwise. */
  private readonly recovering = new Map<string, number>();
  private recoveryTimer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly conversations: ConversationsService,
    private readonly providers: ProviderRelay,
    private readonly channel: DaemonChannel,
    private readonly ownership: BoxOwnership,
    private readonly rpc: OwnerRpc,
  ) {}

  /** A turn started on another instance is handed to its box's daemon here, where the box runs. */
  onModuleInit(): void {
    this.rpc.handle('turn.launch', (sessionId, started) =>
      this.launch(sessionId as string, started as TurnStarted['data']),
    );
    this.rpc.handle('turn.interrupt', (sessionId, conversationId, turn) => {
      this.interruptHarness(sessionId as string, conversationId as string, turn as number);
      return Promise.resolve();
    });
  }

  onApplicationBootstrap(): void {
    for (const session of sidebarQueries(this.readModels).list()) {
      const doc = conversationQueries(this.readModels).get(sessionConversationId(session.id));
      if (doc?.currentTurn != null) this.recovering.set(doc.id, doc.currentTurn);
    }
    if (this.recovering.size === 0) return;
    this.recoveryTimer = setTimeout(
      () => void this.failRecovering(),
      this.config.boxes ? RECOVERY_GRACE_MS : 0,
    );
  }

  onApplicationShutdown(): void {
    if (this.recoveryTimer) clearTimeout(this.recoveryTimer);
  }

  /** After a command on a session's conversation: push the turn it started, if any. */
  async started(sessionId: string, change: ConversationChange): Promise<void> {
    if (change.started) await this.launch(sessionId, change.started);
  }

  /** A turn ended (recorded from its harness, interrupted, failed): the next queued prompt goes. */
  async ended(sessionId: string, conversationId: string): Promise<void> {
    this.pushed.delete(conversationId);
    this.waiting.delete(conversationId);
    await this.kick(sessionId);
  }

  /**
   * Starts the next queued prompt if the session runs and its agent is idle. Not into a
   * destroyed box: the session is about to stop, and its queue waits for the resume's new box.
   */
  async kick(sessionId: string): Promise<void> {
    const session = sidebarQueries(this.readModels).get(sessionId);
    const doc = this.conversations.ofSession(sessionId);
    if (session?.status !== 'running' || !doc || doc.currentTurn !== null || doc.queued === 0)
      return;
    if (sessionDetailsQueries(this.readModels).get(sessionId)?.box?.status === 'destroyed') return;
    await this.started(sessionId, await this.conversations.startNext(sessionId, SYSTEM));
  }

  /** The hop a message sent by this session's agent now would be (its turn's hop + 1). */
  nextHop(sessionId: string): number {
    return (this.conversations.ofSession(sessionId)?.running?.hop ?? 0) + 1;
  }

  /** Stops the running turn's harness; the caller has recorded the turn's end. */
  interruptHarness(sessionId: string, conversationId: string, turn: number): void {
    if (!this.ownership.isMine(sessionId)) {
      // The interrupt is recorded already; an owner that cannot be reached is only logged.
      void this.ownership
        .remoteOwner(sessionId)
        .then((owner) =>
          owner
            ? this.rpc.call(owner, 'turn.interrupt', [sessionId, conversationId, turn])
            : undefined,
        )
        .catch((e: unknown) => this.logger.warn(`interrupting ${sessionId}: ${String(e)}`));
      return;
    }
    this.pushed.delete(conversationId);
    this.waiting.delete(conversationId);
    this.channel.push(sessionId, 'turn.interrupt', { conversationId, turn });
  }

  /** The session's box failed or was destroyed: a running turn's agent went with it. */
  async boxGone(sessionId: string, why: string): Promise<void> {
    const conversationId = sessionConversationId(sessionId);
    const turn = this.conversations.conversation(conversationId)?.currentTurn;
    if (turn == null) return;
    await this.fail(
      sessionId,
      conversationId,
      turn,
      `${why}, and the agent with it`,
      'not_running',
    );
  }

  /**
   * A session stopped with its box destroyed: its running turn fails as the box's reaction
   * fails it (the same command, so once, whichever of the two comes first), not interrupted.
   */
  async failIfBoxDestroyed(sessionId: string): Promise<boolean> {
    const box = sessionDetailsQueries(this.readModels).get(sessionId)?.box;
    if (box?.status !== 'destroyed') return false;
    await this.boxGone(sessionId, 'the box was destroyed');
    return true;
  }

  /** A daemon connected and listed the turns whose harness it still runs. */
  async hello(
    sessionId: string,
    running: { conversationId: string; turn: number }[],
  ): Promise<void> {
    const conversationId = sessionConversationId(sessionId);
    const doc = this.conversations.conversation(conversationId);
    const turn = doc?.currentTurn ?? null;
    const alive = running.some((r) => r.conversationId === conversationId && r.turn === turn);
    this.recovering.delete(conversationId);
    if (turn === null) return this.kick(sessionId);
    if (alive) {
      this.pushed.set(conversationId, turn);
      return;
    }
    const waiting = this.waiting.get(conversationId);
    if (waiting?.turn === turn) return this.push(sessionId, waiting);
    const lost =
      this.pushed.get(conversationId) === turn ? 'the box restarted' : 'Sessionboxer restarted';
    await this.fail(
      sessionId,
      conversationId,
      turn,
      `${lost} while the turn ran, and its agent with it; send the prompt again`,
    );
  }

  private async launch(sessionId: string, started: TurnStarted['data']): Promise<void> {
    const owner = this.ownership.isMine(sessionId)
      ? null
      : await this.ownership.remoteOwner(sessionId);
    if (owner) return this.rpc.call(owner, 'turn.launch', [sessionId, started]);
    const doc = this.conversations.conversation(started.conversationId);
    if (!doc) return;
    const { harness } = doc;
    const gone = this.whyNoBox(sessionId);
    if (gone !== null) {
      return this.fail(sessionId, started.conversationId, started.turn, gone, 'not_running');
    }
    await this.push(sessionId, {
      conversationId: started.conversationId,
      turn: started.turn,
      harness,
      prompt: started.text,
      briefing: started.briefing,
      model: started.model,
      harnessSessionId: doc.harnessSessionId,
      // Placeholders and the edge's relay URLs only: the real credential never enters the box.
      env: this.providers.boxEnv(harness),
    });
  }

  /** Why no agent can run in this session's box now, or null when one can (or soon will). */
  private whyNoBox(sessionId: string): string | null {
    if (!this.config.boxes) {
      return 'this control plane starts no boxes (SESSIONBOXER_BOXES=off), so no agent can run';
    }
    const box = sessionDetailsQueries(this.readModels).get(sessionId)?.box;
    if (box?.status === 'destroyed') return "the session's box was destroyed, so no agent can run";
    if (box?.status === 'failed') {
      return `the session's box failed (${box.failure ?? 'no reason given'}), so no agent can run`;
    }
    return null;
  }

  private push(sessionId: string, turn: TurnStartPush): Promise<void> {
    if (this.channel.push(sessionId, 'turn.start', turn)) {
      this.waiting.delete(turn.conversationId);
      this.pushed.set(turn.conversationId, turn.turn);
    } else {
      // Sent at the daemon's next hello (a box starting, a reconnect).
      this.waiting.set(turn.conversationId, turn);
    }
    return Promise.resolve();
  }

  private async fail(
    sessionId: string,
    conversationId: string,
    turn: number,
    message: string,
    code = 'agent_lost',
  ): Promise<void> {
    const change = await this.conversations.execute(conversationId, {
      type: 'FailTurn',
      data: { conversationId, turn, code, message },
      metadata: this.conversations.metadata(SYSTEM, `fail/${conversationId}/${turn}`),
    });
    if (change.result.events.length > 0) await this.ended(sessionId, conversationId);
  }

  private async failRecovering(): Promise<void> {
    this.recoveryTimer = null;
    for (const [conversationId, turn] of [...this.recovering]) {
      this.recovering.delete(conversationId);
      const doc = this.conversations.conversation(conversationId);
      if (doc?.sessionId == null || this.pushed.get(conversationId) === turn) continue;
      // Another live instance runs its box, and so its agent.
      if (await this.ownership.remoteOwner(doc.sessionId)) continue;
      await this.fail(
        doc.sessionId,
        conversationId,
        turn,
        'Sessionboxer restarted while the turn ran, and its box did not report the agent running; send the prompt again',
      ).catch((e: unknown) =>
        this.logger.warn(`failing turn ${turn} of ${conversationId}: ${String(e)}`),
      );
    }
  }
}
