import * as path from 'node:path';
import { Logger, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthController } from './auth/auth.controller';
import { AuthGuard } from './auth/auth.guard';
import { AuthService } from './auth/auth.service';
import { AgentController } from './agent/agent.controller';
import { BoxGoneReactor } from './agent/box-gone.reactor';
import { ConversationsService } from './agent/conversations.service';
import { HarnessOutputRecorder } from './agent/harness-output.recorder';
import { SessionAgent } from './agent/session-agent.service';
import { TurnDispatcher } from './agent/turn-dispatcher';
import { BoxGateway } from './box-gateway/box.gateway';
import { BoxSockets } from './boxes/channel/box-sockets';
import { CallService } from './box-gateway/call.service';
import { DaemonChannel } from './boxes/channel/daemon-channel';
import { DesktopCalls } from './box-gateway/desktop-calls';
import { BoxLifecycle } from './boxes/lifecycle/box-lifecycle.service';
import { DestroyedBoxes } from './sessions/destroyed-boxes';
import { SessionFileSync } from './sessions/session-file-sync';
import { LocalBoxDriver } from './boxes/driver';
import type { AppConfig } from './config';
import { FileCredentialVault } from './settings/credentials/credential-vault';
import { CredentialsController } from './settings/credentials/credentials.controller';
import { CREDENTIAL_VAULT, CredentialsService } from './settings/credentials/credentials.service';
import { EventsController } from './history/events.controller';
import { ApprovalsController } from './other-sessions/approvals.controller';
import { LimitsController } from './other-sessions/limits.controller';
import { Approvals } from './other-sessions/approvals.service';
import { OtherSessions } from './other-sessions/caller-other-sessions';
import { ChildSessions } from './other-sessions/child-sessions.service';
import { StoppedChildren } from './other-sessions/stopped-children.reactor';
import { SessionDirectory } from './other-sessions/session-directory.service';
import { PolicyController } from './settings/policy/policy.controller';
import { PolicyService } from './settings/policy/policy.service';
import { GitHubWebhookController } from './pull-requests/github-webhook.controller';
import { PrWatcher } from './pull-requests/pr-watcher';
import { HealthController } from './history/health.controller';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { BOX_DRIVER } from './infrastructure/tokens';
import { PullRequests } from './pull-requests/pull-requests.service';
import { BoxTools } from './boxes/box.tools';
import { PullRequestTools } from './pull-requests/pr.tools';
import { SelfTools } from './sessions/self.tools';
import { SnapshotsService } from './boxes/snapshots/snapshots.service';
import { Terminals } from './boxes/terminals/terminals.service';
import { WhoAmIBuilder } from './sessions/whoami.builder';
import { SessionBoxController } from './sessions/session-box.controller';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsService } from './sessions/sessions.service';
import { SettingsController } from './settings/settings.controller';
import { SettingsService } from './settings/settings.service';
import { TranscriptFeed } from './ui-socket/transcript-feed';
import { SessionFeed } from './ui-socket/session-feed';
import { SessionState } from './ui-socket/session-state';
import { SidebarFeed } from './ui-socket/sidebar-feed';
import { UiFeed } from './ui-socket/ui-feed';
import { SessionFilesController } from './boxes/workspace/session-files.controller';
import { SessionTerminalsController } from './boxes/terminals/session-terminals.controller';
import { SnapshotForkController } from './sessions/snapshot-fork.controller';
import { UiGateway } from './ui-socket/ui.gateway';
import { UiPresence } from './presence/ui-presence';
import { UiSignIns } from './ui-socket/ui-sign-ins';
import { JOBS, createJobs } from './jobs/jobs.provider';
import { SchedulesForCalls } from './schedules/caller-schedules';
import { JobsBoot } from './schedules/jobs-boot.service';
import { ScheduleFires } from './schedules/schedule-fires';
import { SchedulesController } from './schedules/schedules.controller';
import { Schedules } from './schedules/schedules.service';
import { AutoQa } from './auto-qa/auto-qa';
import { VerifyTools } from './auto-qa/verify.tools';
import { CallHandlers } from './calls/call-handlers';
import { QueueTools } from './agent/queue.tools';
import { OtherSessionsTools } from './other-sessions/other-sessions.tools';
import { ScheduleTools } from './schedules/schedule.tools';
import { VerificationsController } from './auto-qa/verifications.controller';
import { Verifications } from './auto-qa/verifications.service';

function boxDriver(config: AppConfig): Provider {
  return {
    provide: BOX_DRIVER,
    useFactory: () =>
      LocalBoxDriver.open({
        dataDir: config.dataDir,
        isolation: config.boxIsolation,
        logDir: path.join(config.dataDir, 'logs'),
        identity: { uid: config.boxUidBase, gid: config.boxUidBase, count: 65536 },
        logger: new Logger('BoxDriver'),
      }),
  };
}

@Module({})
export class AppModule {
  /** `boxSockets` is shared with the WebSocket adapter that serves the box gateway. */
  static forRoot(config: AppConfig, boxSockets: BoxSockets): DynamicModule {
    return {
      module: AppModule,
      imports: [InfrastructureModule.forRoot(config)],
      controllers: [
        AuthController,
        SessionsController,
        SessionBoxController,
        EventsController,
        HealthController,
        SettingsController,
        GitHubWebhookController,
        AgentController,
        CredentialsController,
        PolicyController,
        ApprovalsController,
        LimitsController,
        VerificationsController,
        SchedulesController,
        SessionTerminalsController,
        SnapshotForkController,
        SessionFilesController,
      ],
      providers: [
        { provide: BoxSockets, useValue: boxSockets },
        AuthService,
        { provide: APP_GUARD, useClass: AuthGuard },
        boxDriver(config),
        SessionsService,
        SettingsService,
        BoxLifecycle,
        DestroyedBoxes,
        SessionFileSync,
        BoxGateway,
        CallService,
        DesktopCalls,
        DaemonChannel,
        CallHandlers,
        SelfTools,
        PullRequestTools,
        BoxTools,
        QueueTools,
        VerifyTools,
        OtherSessionsTools,
        ScheduleTools,
        WhoAmIBuilder,
        PullRequests,
        Terminals,
        SnapshotsService,
        PrWatcher,
        UiPresence,
        UiSignIns,
        UiGateway,
        TranscriptFeed,
        SidebarFeed,
        SessionState,
        SessionFeed,
        UiFeed,
        { provide: CREDENTIAL_VAULT, useFactory: () => new FileCredentialVault(config.dataDir) },
        CredentialsService,
        ConversationsService,
        TurnDispatcher,
        HarnessOutputRecorder,
        SessionAgent,
        BoxGoneReactor,
        PolicyService,
        ChildSessions,
        StoppedChildren,
        Approvals,
        SessionDirectory,
        OtherSessions,
        Verifications,
        AutoQa,
        // The jobs adapter jobs.provider chooses: BullMQ when REDIS_URL is set, else in-process.
        { provide: JOBS, useFactory: () => createJobs({ redisUrl: config.redisUrl }) },
        Schedules,
        ScheduleFires,
        SchedulesForCalls,
        JobsBoot,
      ],
    };
  }
}
