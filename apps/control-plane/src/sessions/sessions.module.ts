import { Module } from '@nestjs/common';
import { AgentModule } from '../agent';
import { BoxesModule } from '../boxes';
import { PresenceModule } from '../presence';
import { RepositoriesModule } from '../repositories';
import { SettingsModule } from '../settings';
import { DestroyedBoxes } from './destroyed-boxes';
import { SelfTools } from './self.tools';
import { SessionBoxController } from './session-box.controller';
import { SessionFileSync } from './session-file-sync';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';
import { SnapshotForkController } from './snapshot-fork.controller';
import { WhoAmIBuilder } from './whoami.builder';

/** Sessions: create, rename, stop, resume, fork; what a session knows of itself (whoami). */
@Module({
  imports: [AgentModule, BoxesModule, SettingsModule, PresenceModule, RepositoriesModule],
  controllers: [SessionsController, SessionBoxController, SnapshotForkController],
  providers: [SessionsService, WhoAmIBuilder, SelfTools, SessionFileSync, DestroyedBoxes],
  exports: [SessionsService, WhoAmIBuilder, SessionFileSync],
})
export class SessionsModule {}
