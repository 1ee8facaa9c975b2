import { Module } from '@nestjs/common';
import { AgentModule } from '../agent';
import { ApiKeysModule } from '../api-keys';
import { AuthModule } from '../auth';
import { BoxesModule } from '../boxes';
import { JobsModule } from '../jobs';
import { SandboxDesktopReleased } from './desktop/desktop-released';
import { SandboxDesktop } from './desktop/sandbox-desktop.service';
import { EnvironmentsAdminController } from './environments-admin.controller';
import { Environments } from './environments.service';
import { McpController } from './mcp.controller';
import { SandboxOpenApiController, SandboxRestController } from './rest.controller';
import { SandboxApiService } from './sandbox-api.service';
import { SandboxesAdminController } from './sandboxes-admin.controller';
import { SandboxAgents } from './sandbox-agents';
import { SandboxAgentsFinished } from './sandbox-agents-finished';
import { SandboxBoxes } from './sandbox-boxes';
import { SandboxEdge } from './sandbox-edge';
import { SandboxIdle } from './sandbox-idle';
import { SandboxSecrets } from './sandbox-secrets';
import { SandboxTurns } from './sandbox-turns';
import { SandboxUse } from './sandbox-use';
import { SandboxWork } from './sandbox-work';
import { Sandboxes } from './sandboxes.service';
import { SandboxTokens } from './tokens/sandbox-tokens.service';
import { watchTokensProvider } from './tokens/watch-tokens';
import { SandboxViewGateway } from './watch/sandbox-view.gateway';

/**
 * The sandbox API (docs/SANDBOXES.md): sandboxes owning boxes through the BoxDriver, their
 * commands and files, coding agents, secrets environments, as MCP at /mcp and REST under /v1 with API keys.
 */
@Module({
  imports: [ApiKeysModule, AuthModule, BoxesModule, JobsModule, AgentModule],
  controllers: [
    McpController,
    SandboxRestController,
    SandboxOpenApiController,
    SandboxesAdminController,
    EnvironmentsAdminController,
  ],
  providers: [
    Environments,
    Sandboxes,
    SandboxBoxes,
    SandboxSecrets,
    SandboxUse,
    SandboxWork,
    SandboxApiService,
    SandboxIdle,
    SandboxEdge,
    SandboxTurns,
    SandboxAgents,
    SandboxAgentsFinished,
    SandboxDesktop,
    SandboxDesktopReleased,
    SandboxTokens,
    watchTokensProvider,
    SandboxViewGateway,
  ],
  // SandboxTokens.authenticate: for the watch page too (sandboxes/watch/).
  exports: [Sandboxes, SandboxTokens],
})
export class SandboxesModule {}
