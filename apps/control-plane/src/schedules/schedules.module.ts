import { Module } from '@nestjs/common';
import { AgentModule } from '../agent';
import { JobsModule } from '../jobs';
import { OtherSessionsModule } from '../other-sessions';
import { RepositoriesModule } from '../repositories';
import { SessionsModule } from '../sessions';
import { SettingsModule } from '../settings';
import { SchedulesForCalls } from './caller-schedules';
import { JobsBoot } from './jobs-boot.service';
import { ScheduleFires } from './schedule-fires';
import { ScheduleTools } from './schedule.tools';
import { SchedulesController } from './schedules.controller';
import { Schedules } from './schedules.service';
import { StopAfterFirstTurn } from './stop-after.reactor';

/** Scheduled tasks: cron schedules that prompt a session or start one, and their jobs. */
@Module({
  imports: [
    AgentModule,
    SessionsModule,
    OtherSessionsModule,
    SettingsModule,
    JobsModule,
    RepositoriesModule,
  ],
  controllers: [SchedulesController],
  providers: [
    Schedules,
    ScheduleFires,
    SchedulesForCalls,
    JobsBoot,
    ScheduleTools,
    StopAfterFirstTurn,
  ],
})
export class SchedulesModule {}
