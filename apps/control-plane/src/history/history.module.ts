import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { HealthController } from './health.controller';
import { StateAtController } from './state-at.controller';
import { TimelineController } from './timeline.controller';

/** For auditors and operators: the raw event history, and the stores' health. */
@Module({
  controllers: [EventsController, HealthController, StateAtController, TimelineController],
})
export class HistoryModule {}
