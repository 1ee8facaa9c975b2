import { Module, type OnModuleInit } from '@nestjs/common';
import { BOX_EDGE } from '@sessionboxer/mcp-adapters';
import { BoxesModule } from '../boxes';
import { EdgeRoutes, EgressModule } from '../egress';
import { SettingsModule } from '../settings';
import { gitRelay } from './git-relay';
import { RepositoriesController } from './repositories.controller';
import { Repositories } from './repositories.service';
import { SessionDiffs } from './session-diff';
import { WorkspaceClones } from './workspace-clones';

/**
 * Global settings' repositories, their clones in each session's workspace, the `/git` relay
 * on the boxes' edge (which adds the forge token), and a session's diff.
 */
@Module({
  imports: [SettingsModule, BoxesModule, EgressModule],
  controllers: [RepositoriesController],
  providers: [Repositories, WorkspaceClones, SessionDiffs],
  exports: [Repositories],
})
export class RepositoriesModule implements OnModuleInit {
  constructor(
    private readonly routes: EdgeRoutes,
    private readonly repositories: Repositories,
  ) {}

  onModuleInit(): void {
    this.routes.add(BOX_EDGE.routes.git, gitRelay(this.repositories));
  }
}
