import { Inject, Injectable } from '@nestjs/common';
import {
  recordingQueries,
  type NotificationPage,
  type RecordingDoc,
  type SnapshotDoc,
  type SqliteReadModelStore,
  type VerificationRunDoc,
} from '@sessionboxer/projections';
import { SessionAgent, type QueuedPromptView } from '../agent/session-agent.service';
import { READ_MODELS } from '../infrastructure/tokens';
import { Approvals, type ApprovalAnswer } from '../other-sessions/approvals.service';
import { sessionLimits, type SessionLimits } from '../other-sessions/session-limits';
import { PolicyService, type PolicyView } from '../policy/policy.service';
import { PullRequests, type PrWithItems } from '../sessionboxer/pull-requests.service';
import { SnapshotsService } from '../sessionboxer/snapshots.service';
import { Terminals, type TerminalListing } from '../sessionboxer/terminals.service';
import { SessionsService, type SessionView } from '../sessions/sessions.service';
import { Verifications } from '../verification/verifications.service';

/** The `session` frame's data: each field the body of the session's REST GET of that name. */
export interface SessionFrame {
  sessionId: string;
  /** GET /api/sessions/:id */
  session: SessionView;
  /** GET /api/sessions/:id/queue */
  queue: QueuedPromptView[];
  /** GET /api/sessions/:id/approvals */
  approvals: ApprovalAnswer[];
  /** GET /api/sessions/:id/prs */
  prs: PrWithItems[];
  /** GET /api/sessions/:id/verifications */
  verifications: VerificationRunDoc[];
  /** GET /api/sessions/:id/recordings */
  recordings: RecordingDoc[];
  /** GET /api/sessions/:id/notifications (its first page) */
  notifications: NotificationPage;
  /** GET /api/sessions/:id/snapshots */
  snapshots: SnapshotDoc[];
  /** GET /api/sessions/:id/terminals */
  terminals: TerminalListing[];
  /** GET /api/sessions/:id/policy */
  policy: PolicyView;
  /** GET /api/sessions/:id/limits */
  limits: SessionLimits;
}

/**
 * Everything the session view shows besides its transcript, read through the same services
 * the REST controllers answer from, so a frame and a GET never disagree.
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
