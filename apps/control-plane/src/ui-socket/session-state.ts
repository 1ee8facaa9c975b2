import { Inject, Injectable } from '@nestjs/common';
import type { SessionFrame } from '@sessionboxer/contracts';
import { recordingQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { SessionAgent } from '../agent';
import { READ_MODELS } from '../infrastructure/tokens';
import { Approvals } from '../other-sessions';
import { sessionLimits } from '../other-sessions';
import { PolicyService } from '../settings';
import { PullRequests } from '../pull-requests';
import { SnapshotsService } from '../boxes';
import { Terminals } from '../boxes';
import { SessionsService } from '../sessions';
import { Verifications } from '../auto-qa';

/**
 * Everything the session view shows besides its transcript, read through the same services
 * the REST controllers answer from, so a frame and a GET never disagree. The frame's type is the
 * contracts' (what the browser reads), so a service whose answer drifts from it fails to compile.
 */
@Injectable()
export class SessionState {
  constructor(
    private readonly sessions: SessionsService,
    private readonly agent: SessionAgent,
    private readonly approvals: Approvals,
    private readonly prs: PullRequests,
    private readonly verifications: Verifications,
    private readonly snapshots: SnapshotsService,
    private readonly terminals: Terminals,
    private readonly policy: PolicyService,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  /** Throws NotFound for a session that does not exist. */
  async build(sessionId: string): Promise<SessionFrame> {
    // The one read that waits comes first; the rest is read in one go, from one state.
    const policy = await this.policy.view(sessionId);
    return {
      sessionId,
      session: this.sessions.get(sessionId),
      queue: this.agent.queue(sessionId),
      approvals: this.approvals.list(sessionId),
      prs: this.prs.listWithItems(sessionId),
      verifications: this.verifications.list(sessionId),
      recordings: recordingQueries(this.readModels).list(sessionId),
      notifications: this.sessions.notifications(sessionId),
      snapshots: this.snapshots.list(sessionId),
      terminals: this.terminals.list(sessionId),
      policy,
      limits: sessionLimits(this.readModels, sessionId),
    };
  }
}
