import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { EventStore } from '@sessionboxer/event-store';
import type { Checkpoint, ProjectionRunner } from '@sessionboxer/projections';
import type { AppConfig } from '../config';
import { APP_CONFIG, EVENT_STORE, PROJECTION_RUNNER } from '../infrastructure/tokens';
import { Public } from '../auth';

/** Readiness, for a signed-in operator: the store, its head, and where each projection stands. */
export interface Readiness {
  status: 'ok' | 'degraded';
  eventStore: 'sqlite' | 'eventstoredb';
  headPosition: number;
  projections: Checkpoint[];
}

@ApiTags('health')
@Controller('api/health')
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner,
  ) {}

  /** Liveness: anyone may ask, and it tells nothing but that the process answers. */
  @Public()
  @Get()
  @ApiOperation({ summary: 'Liveness: { status: "ok" } while the process answers (public)' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness with details: store kind, head of $all, projections' })
  async ready(): Promise<Readiness> {
    const projections = this.runner.status();
    return {
      status: projections.some((p) => p.failure !== null) ? 'degraded' : 'ok',
      eventStore: this.config.eventStoreUrl ? 'eventstoredb' : 'sqlite',
      headPosition: await this.store.headPosition(),
      projections,
    };
  }
}
