import { Inject, Injectable, Logger } from '@nestjs/common';
import { isDomainError } from '@sessionboxer/domain';
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';
import {
  ReactorRunner,
  type ProjectionRunner,
  type ReactionContext,
  type Reactor,
  type ReactorCheckpoint,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { EVENT_STORE, PROJECTION_RUNNER, READ_MODELS } from './tokens';

/**
 * The control plane's reactors (cross-feature effects, see ReactorRunner): each feature's
 * reactor registers itself here in `onModuleInit`, and StoreLifecycle starts them all once the
 * projection runner runs, each reaction waiting for the read models to show its event.
 */
@Injectable()
export class Reactors {
  private readonly logger = new Logger('Reactors');
  private readonly reactors: Reactor[] = [];
  private runner: ReactorRunner | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_MODELS) private readonly store: SqliteReadModelStore,
    @Inject(PROJECTION_RUNNER) private readonly projections: ProjectionRunner,
  ) {}

  /** From a reactor's `onModuleInit`, so every one is there before `start`. */
  register(reactor: Reactor): void {
    if (this.runner !== null) throw new Error(`reactor ${reactor.name} registered after start`);
    this.reactors.push(this.refusalIsAnAnswer(reactor));
  }

  async start(): Promise<void> {
    if (this.reactors.length === 0) return;
    this.runner = new ReactorRunner({
      eventStore: this.eventStore,
      store: this.store,
      reactors: this.reactors,
      readModels: this.projections,
      logger: {
        error: (message, context) => this.logger.error(`${message} ${JSON.stringify(context)}`),
      },
    });
    await this.runner.start();
  }

  async stop(): Promise<void> {
    await this.runner?.stop();
  }

  status(): ReactorCheckpoint[] {
    return this.runner?.status() ?? [];
  }

  /**
   * Resolves once every reactor that handles one of `types` is done with `position`: for a
   * command whose answer promises its reactions (a stop frees its places before it answers).
   * Only those reactors: another one may be the caller, and waiting for it would wait for
   * itself. So a reactor must never wait for the reactions to events it handles itself.
   */
  waitForReactionsTo(types: readonly string[], position: number): Promise<void> {
    const reacting = this.reactors.filter((r) => r.handles.some((t) => types.includes(t)));
    if (reacting.length === 0) return Promise.resolve();
    const runner = this.runner;
    if (runner === null) return Promise.reject(new Error('the reactors are not running'));
    return Promise.all(reacting.map((r) => runner.waitForReactor(r.name, position))).then(
      () => undefined,
    );
  }

  /**
   * A command the domain refuses (the turn ended meanwhile, the session stopped already) is
   * decided: trying again would decide the same, and would hold the reactor on that event for
   * ever. So a refusal is logged and the reaction done; anything else (the store unavailable,
   * read models late) throws on, to be retried.
   */
  private refusalIsAnAnswer(reactor: Reactor): Reactor {
    const react = async (event: RecordedEvent, ctx: ReactionContext) => {
      try {
        await reactor.react(event, ctx);
      } catch (e) {
        if (!isDomainError(e)) throw e;
        this.logger.warn(
          `reactor ${reactor.name}, ${event.type} at ${event.position}: ${e.message}`,
        );
      }
    };
    return { name: reactor.name, handles: reactor.handles, react };
  }
}
