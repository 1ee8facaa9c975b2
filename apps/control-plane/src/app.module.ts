import { DesktopViewModule } from './desktop-view';
import { Module, type DynamicModule } from '@nestjs/common';
import { AgentModule } from './agent';
import { AuditModule } from './audit';
import { AuthModule } from './auth';
import { AutoQaModule } from './auto-qa';
import { GatewayModule } from './box-gateway';
import { BoxesModule } from './boxes';
import { CallsModule } from './calls';
import { ClusterModule } from './cluster';
import type { AppConfig } from './config';
import { EgressModule } from './egress';
import { HistoryModule } from './history';
import { InboxModule } from './inbox';
import { PushModule } from './push';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { LoggingModule } from './logging';
import { MetricsModule } from './metrics';
import { OtherSessionsModule } from './other-sessions';
import { PresenceModule } from './presence';
import { PullRequestsModule } from './pull-requests';
import { RepositoriesModule } from './repositories';
import { ApiKeysModule } from './api-keys';
import { SandboxesModule } from './sandboxes';
import { SchedulesModule } from './schedules';
import { SearchModule } from './search';
import { SessionsModule } from './sessions';
import { SettingsModule } from './settings';
import { TerminalMcpModule } from './terminal-mcp';
import { UiSocketModule } from './ui-socket';

/**
 * The control plane: one module per capability (docs/ARCHITECTURE.md has the map of which
 * owns which tools, events, read models and routes). AppModule only imports them.
 */
@Module({})
export class AppModule {
  /** `logs`: where the log lines go instead of stdout (the tests' capture). */
  static forRoot(config: AppConfig, logs?: NodeJS.WritableStream): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(config),
        ClusterModule,
        LoggingModule.forRoot(config, logs),
        CallsModule,
        AuthModule,
        SettingsModule,
        InboxModule,
        SearchModule,
        PushModule,
        PresenceModule,
        BoxesModule,
        EgressModule,
        RepositoriesModule,
        AgentModule,
        SessionsModule,
        OtherSessionsModule,
        SchedulesModule,
        PullRequestsModule,
        AutoQaModule,
        GatewayModule,
        UiSocketModule,
        DesktopViewModule,
        TerminalMcpModule,
        HistoryModule,
        AuditModule,
        MetricsModule,
        ApiKeysModule,
        SandboxesModule,
      ],
    };
  }
}
