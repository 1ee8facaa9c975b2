import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { isDomainError, ErrorCode, type Actor } from '@sessionboxer/domain';
import type { EventStore, Subscription } from '@sessionboxer/event-store';
import {
  sessionDetailsQueries,
  sidebarQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { TurnDispatcher } from '../agent/turn-dispatcher';
import { CommandBus } from '../infrastructure/command-bus';
import { EVENT_STORE, READ_MODELS } from '../infrastructure/tokens';
import { SessionsService } from '../sessions/sessions.service';

const SYSTEM: Actor = { kind: 'system', id: 'box-lifecycle' };
const RETRY_MS = 1_000;

/**
 * The reaction to `BoxDestroyed`: a session without its box is over, so its running turn fails
 * (its agent went with the box) and the session stops, which is what the limits count as not
 * alive: an agent-created session gives its places in its creator's and the global ledger back,
 * exactly as `session_stop` does. In that order, so the turn ends as failed, not interrupted.
 * The log is followed live; at boot, sessions whose box was destroyed while no control plane
 * followed it (a crash between the two) are stopped too, so a place never stays taken.
 */
@Injectable()
export class DestroyedBoxes implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DestroyedBoxes');
  private subscription: Subscription | null = null;
  private closing = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly bus: CommandBus,
    private readonly turns: TurnDispatcher,
    private readonly sessions: SessionsService,
  ) {}

  onApplicationBootstrap(): void {
    void this.follow();
    void this.stopLeftovers().catch((e: unknown) => this.warn('at boot', e));
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.subscription?.close();
  }

  /** Fails the session's running turn and stops the session; a stopped one stays as it is. */
  async react(sessionId: string): Promise<void> {
    await this.turns.boxGone(sessionId, 'the box was destroyed');
    if (sidebarQueries(this.readModels).get(sessionId)?.status !== 'running') return;
    await this.sessions.stop(sessionId, 'its box was destroyed', { actor: SYSTEM }).catch((e) => {
      // Stopped meanwhile (a person, another instance): nothing is left to do.
      if (!(isDomainError(e) && e.code === ErrorCode.InvalidState)) throw e;
    });
  }

  private async follow(): Promise<void> {
    while (!this.closing) {
      this.subscription = this.store.subscribeToAll({ fromPosition: 'end' });
      try {
        for await (const event of this.subscription) {
          if (event.type !== 'BoxDestroyed') continue;
          const { sessionId } = event.data as { sessionId: string };
          await this.bus.waitFor(event.position);
          await this.react(sessionId).catch((e: unknown) => this.warn(sessionId, e));
        }
        return;
      } catch (e) {
        if (this.closing) return;
        this.warn('following the log', e);
        await new Promise((r) => setTimeout(r, RETRY_MS).unref());
      }
    }
  }

  private async stopLeftovers(): Promise<void> {
    const head = await this.store.headPosition();
    if (head >= 0) await this.bus.waitFor(head);
    const details = sessionDetailsQueries(this.readModels);
    for (const session of sidebarQueries(this.readModels).list()) {
      if (this.closing) return;
      if (session.status !== 'running' || details.get(session.id)?.box?.status !== 'destroyed')
        continue;
      await this.react(session.id).catch((e: unknown) => this.warn(session.id, e));
    }
  }

  private warn(what: string, e: unknown): void {
    if (!this.closing) this.logger.warn(`${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
