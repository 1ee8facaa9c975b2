import { Module } from '@nestjs/common';
import { AgentModule } from '../agent';
import { BoxesModule } from '../boxes';
import { JobsModule } from '../jobs';
import { RepositoriesModule } from '../repositories';
import { SessionsModule } from '../sessions';
import { SettingsModule } from '../settings';
import { ApprovalsController } from './approvals.controller';
import { Approvals } from './approvals.service';
import { OtherSessions } from './caller-other-sessions';
import { ChildSessions } from './child-sessions.service';
import { LimitsController } from './limits.controller';
import { OtherSessionsTools } from './other-sessions.tools';
import { SessionDirectory } from './session-directory.service';
import { StoppedChildren } from './stopped-children.reactor';

/**
 * Sessions acting on sessions: the Other sessions tools, the approvals a person answers, and
 * the limits (3 alive per creating agent, the global cap) that hold when calls race.
 */
@Module({
  imports: [
    SessionsModule,
    AgentModule,
    BoxesModule,
    SettingsModule,
    JobsModule,
    RepositoriesModule,
  ],
  controllers: [ApprovalsController, LimitsController],
  providers: [
    Approvals,
    ChildSessions,
    StoppedChildren,
    SessionDirectory,
    OtherSessions,
    OtherSessionsTools,
  ],
  exports: [Approvals, ChildSessions],
})
export class OtherSessionsModule {}
