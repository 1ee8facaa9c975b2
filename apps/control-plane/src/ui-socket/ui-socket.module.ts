import { Module } from '@nestjs/common';
import { AgentModule } from '../agent';
import { AuthModule } from '../auth';
import { AutoQaModule } from '../auto-qa';
import { BoxesModule } from '../boxes';
import { InboxModule } from '../inbox';
import { OtherSessionsModule } from '../other-sessions';
import { PresenceModule } from '../presence';
import { PullRequestsModule } from '../pull-requests';
import { SessionsModule } from '../sessions';
import { SettingsModule } from '../settings';
import { BoxTerminalKeys } from './box-terminal-keys';
import { BoxTerminalsFeed } from './box-terminals-feed';
import { InboxFeed } from './inbox-feed';
import { SessionFeed } from './session-feed';
import { SessionState } from './session-state';
import { SidebarFeed } from './sidebar-feed';
import { TranscriptFeed } from './transcript-feed';
import { UiFeed } from './ui-feed';
import { UiGateway } from './ui.gateway';
import { UiSignIns } from './ui-sign-ins';

/** The web UI's live socket: the sidebar, the watched session's panes and its transcript. */
@Module({
  imports: [
    AuthModule,
    AgentModule,
    AutoQaModule,
    BoxesModule,
    InboxModule,
    OtherSessionsModule,
    PresenceModule,
    PullRequestsModule,
    SessionsModule,
    SettingsModule,
  ],
  providers: [
    UiSignIns,
    UiGateway,
    TranscriptFeed,
    SidebarFeed,
    InboxFeed,
    SessionState,
    SessionFeed,
    UiFeed,
    BoxTerminalKeys,
    BoxTerminalsFeed,
  ],
})
export class UiSocketModule {}
