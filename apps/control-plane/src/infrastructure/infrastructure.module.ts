import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CommandHandler, type EventStore } from '@sessionboxer/event-store';
import { allProjections, ProjectionRunner, SqliteReadModelStore } from '@sessionboxer/projections';
import type { AppConfig } from '../config';
import { AppendObservers } from './append-observers';
import { ChainCheckpointer, openChainCheckpointer } from './chain-checkpointer';
import { Clock, IdGenerator, SystemClock, UuidGenerator } from './clock';
import { CommandBus } from './command-bus';
import { openEventStore, readModelPath } from './open-event-store';
import { Reactors } from './reactors';
import { openSharedState, SHARED_STATE, type SharedState } from './shared-state';
import { APP_CONFIG, EVENT_STORE, PROJECTION_RUNNER, READ_MODELS } from './tokens';

/**
 * Starts the projection runner once the app is up, then the reactors (which wait for it);
 * stops the reactors before anything shuts down, then closes runner and stores.
 */
@Injectable()
class StoreLifecycle
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('Stores');

  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner,
    private readonly reactors: Reactors,
    @Inject(ChainCheckpointer) private readonly checkpointer: ChainCheckpointer | null,
    @Inject(SHARED_STATE) private readonly shared: SharedState,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
    await this.reactors.start();
    await this.checkpointer?.start();
  }

  /** A reaction cut short here is reacted to again at the next start (its checkpoint is before). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.reactors.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.reactors.stop();
    await this.runner.stop();
    // Last, so the shutdown checkpoint signs everything the others wrote.
    await this.checkpointer?.stop();
    await this.eventStore.close();
    this.readModels.close();
    await this.shared.close();
    this.logger.log('stores closed');
  }
}

/** The ports and their adapters, chosen from the configuration. */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: AppendObservers, useValue: new AppendObservers() },
        {
          provide: EVENT_STORE,
          inject: [AppendObservers],
          useFactory: (observers: AppendObservers) => openEventStore(config, observers),
        },
        {
          provide: READ_MODELS,
          useFactory: () => SqliteReadModelStore.open({ path: readModelPath(config) }),
        },
        {
          provide: PROJECTION_RUNNER,
          inject: [EVENT_STORE, READ_MODELS],
          useFactory: (eventStore: EventStore, store: SqliteReadModelStore) =>
            new ProjectionRunner({ eventStore, store, projections: allProjections }),
        },
        {
          provide: CommandHandler,
          inject: [EVENT_STORE],
          useFactory: (eventStore: EventStore) => new CommandHandler(eventStore),
        },
        {
          provide: ChainCheckpointer,
          inject: [EVENT_STORE],
          useFactory: (eventStore: EventStore) =>
            openChainCheckpointer(config, eventStore, new Logger('AuditChain')),
        },
        { provide: SHARED_STATE, useFactory: () => openSharedState(config) },
        { provide: Clock, useClass: SystemClock },
        { provide: IdGenerator, useClass: UuidGenerator },
        CommandBus,
        Reactors,
        StoreLifecycle,
      ],
      exports: [
        AppendObservers,
        APP_CONFIG,
        EVENT_STORE,
        READ_MODELS,
        PROJECTION_RUNNER,
        CommandHandler,
        CommandBus,
        Reactors,
        SHARED_STATE,
        Clock,
        IdGenerator,
      ],
    };
  }
}
