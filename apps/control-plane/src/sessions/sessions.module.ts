import { Module } from '@nestjs/common';
import { AgentModule } from '../agent';
import { BoxesModule } from '../boxes';
import { JobsModule } from '../jobs';
import { PresenceModule } from '../presence';
import { RepositoriesModule } from '../repositories';
import { SettingsModule } from '../settings';
import { DeletedSessions } from './deleted-sessions.reactor';
import { DestroyedBoxes } from './destroyed-boxes';
import { SelfTools } from './self.tools';
import { SessionBoxController } from './session-box.controller';
import { SessionFileSync } from './session-file-sync';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';
import { SnapshotForkController } from './snapshot-fork.controller';
import { WhoAmIBuilder } from './whoami.builder';

/** Sessions: create, rename, stop, resume, fork, archive, delete; what a session knows of itself (whoami). */
@Module({
  imports: [
    AgentModule,
    BoxesModule,
    JobsModule,
    SettingsModule,
    PresenceModule,
    RepositoriesModule,
  ],
  controllers: [SessionsController, SessionBoxController, SnapshotForkController],
  providers: [
    SessionsService,
    WhoAmIBuilder,
    SelfTools,
    SessionFileSync,
    DestroyedBoxes,
    DeletedSessions,
  ],
  exports: [SessionsService, WhoAmIBuilder, SessionFileSync],
})
export class SessionsModule {}
