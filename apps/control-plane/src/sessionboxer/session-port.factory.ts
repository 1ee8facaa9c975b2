import { Injectable } from '@nestjs/common';
import type { SessionboxerPort } from '@sessionboxer/mcp-adapters';
import { SessionAgent } from '../agent/session-agent.service';
import { DaemonChannel } from '../box-gateway/daemon-channel';
import { OtherSessions } from '../other-sessions/caller-other-sessions';
import { CommandBus } from '../infrastructure/command-bus';
import { PolicyService } from '../policy/policy.service';
import { SettingsService } from '../settings/settings.service';
import { UiPresence } from '../ui-socket/ui-presence';
import { Verifications } from '../verification/verifications.service';
import { SchedulesForCalls } from '../schedules/caller-schedules';
import { ControlPlaneSessionPort } from './control-plane-session-port';
import { PullRequests } from './pull-requests.service';
import { SnapshotsService } from './snapshots.service';
import { Terminals } from './terminals.service';
import { WhoAmIBuilder } from './whoami.builder';

/** What a session port needs; one set shared by every call. */
export interface SessionPortDeps {
  bus: CommandBus;
  whoami: WhoAmIBuilder;
  settings: SettingsService;
  prs: PullRequests;
  snapshots: SnapshotsService;
  channel: DaemonChannel;
  presence: UiPresence;
  terminals: Terminals;
  agent: SessionAgent;
  verifications: Verifications;
  others: OtherSessions;
  schedules: SchedulesForCalls;
  policy: PolicyService;
}

/** Makes the port a box's call runs against, bound to the socket's session and the call id. */
@Injectable()
export class SessionPortFactory {
  private readonly deps: SessionPortDeps;

  constructor(
    bus: CommandBus,
    whoami: WhoAmIBuilder,
    settings: SettingsService,
    prs: PullRequests,
    channel: DaemonChannel,
    presence: UiPresence,
    terminals: Terminals,
    snapshots: SnapshotsService,
    agent: SessionAgent,
    verifications: Verifications,
    others: OtherSessions,
    schedules: SchedulesForCalls,
    policy: PolicyService,
  ) {
    this.deps = {
      ...{ bus, whoami, settings, prs, snapshots, channel, presence, terminals },
      ...{ agent, verifications, others, schedules, policy },
    };
  }

  for(sessionId: string, callId: string): SessionboxerPort {
    return new ControlPlaneSessionPort(this.deps, sessionId, callId);
  }
}
