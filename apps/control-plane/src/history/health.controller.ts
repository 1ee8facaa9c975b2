import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { EventStore } from '@sessionboxer/event-store';
import type { Checkpoint, ProjectionRunner } from '@sessionboxer/projections';
import type { AppConfig } from '../config';
import { APP_CONFIG, EVENT_STORE, PROJECTION_RUNNER } from '../infrastructure/tokens';
import { Public } from '../auth';

export interface Health {
  status: 'ok' | 'degraded';
  eventStore: 'sqlite' | 'eventstoredb';
  headPosition: number;
  projections: Checkpoint[];
}

@ApiTags('health')
@Public()
@Controller('api/health')
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Store kind, head of $all, and where each projection stands' })
  async health(): Promise<Health> {
    const projections = this.runner.status();
    return {
      status: projections.some((p) => p.failure !== null) ? 'degraded' : 'ok',
      eventStore: this.config.eventStoreUrl ? 'eventstoredb' : 'sqlite',
      headPosition: await this.store.headPosition(),
      projections,
    };
  }
}
