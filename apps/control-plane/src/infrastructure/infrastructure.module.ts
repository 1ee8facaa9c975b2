import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CommandHandler, type EventStore } from '@sessionboxer/event-store';
import { allProjections, ProjectionRunner, SqliteReadModelStore } from '@sessionboxer/projections';
import type { AppConfig } from '../config';
import { Clock, IdGenerator, SystemClock, UuidGenerator } from './clock';
import { CommandBus } from './command-bus';
import { openEventStore, readModelPath } from './open-event-store';
import { APP_CONFIG, EVENT_STORE, PROJECTION_RUNNER, READ_MODELS } from './tokens';

/** Starts the projection runner once the app is up; closes runner and stores on shutdown. */
@Injectable()
class StoreLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Stores');

  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
    await this.eventStore.close();
    this.readModels.close();
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
        { provide: EVENT_STORE, useFactory: () => openEventStore(config) },
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
        { provide: Clock, useClass: SystemClock },
        { provide: IdGenerator, useClass: UuidGenerator },
        CommandBus,
        StoreLifecycle,
      ],
      exports: [
        APP_CONFIG,
        EVENT_STORE,
        READ_MODELS,
        PROJECTION_RUNNER,
        CommandHandler,
        CommandBus,
        Clock,
        IdGenerator,
      ],
    };
  }
}
