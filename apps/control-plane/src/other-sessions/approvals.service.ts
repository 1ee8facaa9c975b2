import { Inject, Injectable } from '@nestjs/common';
import {
  APPROVAL_TTL_MS,
  approvalDecider,
  approvalStream,
  DomainError,
  ErrorCode,
  describeActor,
  type Actor,
} from '@sessionboxer/domain';
import { deterministicUuid } from '@sessionboxer/event-store';
import {
  approvalQueries,
  approvalsProjection,
  sidebarQueries,
  type ApprovalDoc,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
// A card as approval_wait and the admin API answer it (approval_wait's ApprovalView is wider).
import type { Approval, ApprovalRequest, PolicySource } from '@sessionboxer/contracts';
import { Clock } from '../infrastructure/clock';
import { CommandBus } from '../infrastructure/command-bus';
import { READ_MODELS } from '../infrastructure/tokens';
import type { DelayedJob, JobsPort } from '../jobs';
import { JOBS } from '../jobs';
import { approvalExpiryJobId } from './approval-expiry';
import { ChildSessions, type ChildRequest, type CreatedChild } from './child-sessions.service';
import { waitUntil } from './wait';

/** What session_create answers under "Ask me", and approval_wait after. */
export interface PendingApproval {
  pending: true;
  id: string;
  summary: string;
  expiresAt: string;
  hint: string;
}

const HARNESS_LABELS: Record<string, string> = {
  'claude-code': 'Claude Code',
  opencode: 'OpenCode',
  scripted: 'The scripted harness',
};

/** Cards a person answers for an agent's action, and what an allowed one did. */
@Injectable()
export class Approvals {
  constructor(
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly clock: Clock,
    private readonly children: ChildSessions,
    @Inject(JOBS) private readonly jobs: JobsPort,
  ) {}

  async requestChild(
    creatorId: string,
    provider: string,
    request: ChildRequest,
    key: string,
    policySource: PolicySource,
  ): Promise<PendingApproval> {
    const approvalId = deterministicUuid(`approval/${creatorId}/${key}`);
    const metadata = this.bus.metadata({ kind: 'agent', sessionId: creatorId }, `approve/${key}`);
    const expiresAt = new Date(Date.parse(metadata.at) + APPROVAL_TTL_MS).toISOString();
    const who = HARNESS_LABELS[provider] ?? 'The agent';
    const summary = `${who} wants to create a Session “${request.title}”`;
    await this.bus.execute(approvalDecider, approvalStream(approvalId), {
      type: 'RequestApproval',
      data: {
        approvalId,
        kind: 'session_create',
        sessionId: creatorId,
        summary,
        payload: { ...request, policySource },
        expiresAt,
      },
      metadata,
    });
    const doc = this.get(approvalId);
    // Reads already treat a card past its deadline as expired; this records it in the log.
    await this.jobs.schedule(expiryJob(doc));
    return {
      pending: true,
      id: approvalId,
      summary: doc.summary,
      expiresAt: doc.expiresAt,
      hint: 'A person must allow this in the chat. Call approval_wait with this id (again while it is pending) and tell the person what you are waiting for; a card nobody answers in 10 minutes expires and counts as denied.',
    };
  }

  /** A person's answer; an allowed session_create is performed now and its result recorded. */
  async answer(
    approvalId: string,
    allow: boolean,
    actor: Actor,
    reason: string | null = null,
  ): Promise<Approval> {
    const doc = this.get(approvalId);
    await this.bus.execute(approvalDecider, approvalStream(approvalId), {
      type: 'AnswerApproval',
      data: { approvalId, allow, reason },
      metadata: this.bus.metadata(actor),
    });
    if (allow) await this.perform(doc);
    return this.card(this.get(approvalId));
  }

  /** The expiry job fired: records ApprovalExpired if the card is still unanswered. */
  async expire(approvalId: string): Promise<void> {
    await this.bus.execute(approvalDecider, approvalStream(approvalId), {
      type: 'ExpireApproval',
      data: { approvalId },
      metadata: this.bus.metadata({ kind: 'system', id: 'approvals' }, `expire/${approvalId}`),
    });
  }

  /** The expiry jobs of every card still pending in the log (for the boot and a rebuild). */
  pendingExpiries(): DelayedJob[] {
    return sidebarQueries(this.readModels)
      .list()
      .flatMap((s) => this.readModels.list(approvalsProjection, { partition: s.id }))
      .filter((d) => d.doc.status === 'pending')
      .map((d) => expiryJob(d.doc));
  }

  /** approval_wait: blocks up to `seconds` (at most 20) while the card is pending. */
  async wait(creatorId: string, approvalId: string, seconds: number): Promise<Approval> {
    const first = this.find(approvalId);
    if (first?.sessionId !== creatorId) {
      throw new DomainError(
        ErrorCode.NotFound,
        `approval ${approvalId} does not exist (or is another session's)`,
      );
    }
    const done = (d: ApprovalDoc) =>
      d.status !== 'pending' && !(d.status === 'allowed' && d.result === null && d.error === null);
    return waitUntil(seconds, () => {
      const doc = this.get(approvalId);
      return { done: done(doc), value: this.view(doc) };
    });
  }

  list(sessionId: string): Approval[] {
    return approvalQueries(this.readModels)
      .forSession(sessionId, this.now())
      .map((d) => this.card(d));
  }

  private async perform(doc: ApprovalDoc): Promise<void> {
    let outcome: { result: Record<string, unknown> | null; error: string | null };
    try {
      const created: CreatedChild = await this.children.create(
        doc.sessionId,
        doc.payload as unknown as ChildRequest,
        `approved/${doc.id}`,
      );
      outcome = { result: { pending: false, ...created }, error: null };
    } catch (e) {
      outcome = { result: null, error: e instanceof Error ? e.message : String(e) };
    }
    await this.bus.execute(approvalDecider, approvalStream(doc.id), {
      type: 'RecordApprovalOutcome',
      data: { approvalId: doc.id, ...outcome },
      metadata: this.bus.metadata({ kind: 'system', id: 'approvals' }, `outcome/${doc.id}`),
    });
  }

  private view(doc: ApprovalDoc): Approval {
    const { id, kind, summary, status, expiresAt, result, error } = doc;
    return {
      id,
      kind,
      summary,
      status,
      expiresAt,
      ...(result ? { result } : {}),
      ...(error ? { error } : {}),
    };
  }

  /** A card as a person sees it: approval_wait's fields and what it asks, who, and how it ended. */
  private card(doc: ApprovalDoc): Approval {
    const title = sidebarQueries(this.readModels).get(doc.sessionId)?.title ?? null;
    const by = doc.answeredBy;
    return {
      ...this.view(doc),
      request: approvalRequest(doc.payload),
      askingSession: { id: doc.sessionId, title },
      ...(by ? { answeredBy: by.kind === 'person' ? by.id : describeActor(by) } : {}),
      ...(doc.reason ? { reason: doc.reason } : {}),
    };
  }

  private find(approvalId: string): ApprovalDoc | null {
    return approvalQueries(this.readModels).get(approvalId, this.now());
  }

  private get(approvalId: string): ApprovalDoc {
    const doc = this.find(approvalId);
    if (!doc) throw new DomainError(ErrorCode.NotFound, `approval ${approvalId} does not exist`);
    return doc;
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const stringOr = <T>(value: unknown, none: T): string | T =>
  typeof value === 'string' ? value : none;

/** What a session_create card asked for, from its recorded payload (older cards lack some). */
function approvalRequest(payload: Record<string, unknown>): ApprovalRequest {
  const source = payload.policySource;
  return {
    title: stringOr(payload.title, ''),
    firstPrompt: stringOr(payload.firstPrompt, ''),
    provider: stringOr(payload.provider, ''),
    repos: strings(payload.repos),
    environment: stringOr(payload.environment, null),
    policySource: source === 'session' || source === 'global' ? source : null,
  };
}

function expiryJob(doc: ApprovalDoc): DelayedJob {
  return {
    id: approvalExpiryJobId(doc.id),
    runAt: new Date(doc.expiresAt),
    data: { approvalId: doc.id },
  };
}
