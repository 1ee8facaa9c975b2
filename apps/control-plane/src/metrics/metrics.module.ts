import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { GatewayModule } from '../box-gateway';
import { JobsModule } from '../jobs';
import { ActivityMetrics } from './activity-metrics';
import { MetricsController } from './metrics.controller';
import { MetricsRegistry } from './metrics.registry';
import { StoreMetrics } from './store-metrics';

/**
 * `GET /metrics` (Prometheus): the store, the read side, boxes, turns, tool calls, egress
 * refusals and jobs. It watches the others (an observer, a call watcher, events, the jobs
 * port's fires); no module pushes numbers into it. docs/OPERATIONS.md lists the families.
 */
@Module({
  imports: [AuthModule, GatewayModule, JobsModule],
  controllers: [MetricsController],
  providers: [MetricsRegistry, StoreMetrics, ActivityMetrics],
})
export class MetricsModule {}
