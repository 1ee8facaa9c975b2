import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  sessionDecider,
  sessionStream,
  type Actor,
  type CommandMetadata,
  type SessionCommand,
  TITLE_MAX_LENGTH,
} from '@sessionboxer/domain';
import { deterministicUuid } from '@sessionboxer/event-store';
import {
  buildTree,
  notificationQueries,
  sessionDetailsQueries,
  sidebarQueries,
  type NotificationPage,
  transcriptQueries,
  type TranscriptPage,
  type SidebarNode,
  type SidebarSession,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import type { SessionView } from '@sessionboxer/contracts';
import { IdGenerator } from '../infrastructure/clock';
import { CommandBus } from '../infrastructure/command-bus';
import { APP_CONFIG, READ_MODELS } from '../infrastructure/tokens';
import { SessionAgent } from '../agent';
import { SnapshotsService } from '../boxes';
import { requireSession } from '../common/require-session';
import { BoxLifecycle } from '../boxes';
import type { AppConfig } from '../config';
import { Repositories } from '../repositories';
import type { CreateSessionDto } from './dto/create-session.dto';

/** Who asked, and the caller's idempotency key when it sent one. */
export interface Caller {
  actor: Actor;
  idempotencyKey?: string;
}

/** The session use cases of the admin API: a command, then a read once projections caught up. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly ids: IdGenerator,
    private readonly boxes: BoxLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly agent: SessionAgent,
    private readonly snapshots: SnapshotsService,
    private readonly repositories: Repositories,
  ) {}

  async create(dto: CreateSessionDto, caller: Caller): Promise<SessionView> {
    const metadata = this.metadata(caller);
    if (dto.forkedFrom && !this.sidebar().get(dto.forkedFrom.sessionId)) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        `forkedFrom.sessionId: session ${dto.forkedFrom.sessionId} does not exist`,
      );
    }
    if (
      dto.forkedFrom &&
      !this.snapshots.has(dto.forkedFrom.sessionId, dto.forkedFrom.snapshotId)
    ) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        `forkedFrom.snapshotId: session ${dto.forkedFrom.sessionId} has no snapshot ${dto.forkedFrom.snapshotId}`,
      );
    }
    // A fork has its source's repositories (and their copied trees); any other names known ones.
    const repos = dto.forkedFrom
      ? this.get(dto.forkedFrom.sessionId).repos
      : this.repositories.requireKnown(dto.repos);
    // A retried create (same key) must name the same session, or it would create a second one.
    const sessionId = caller.idempotencyKey
      ? deterministicUuid(`session/${metadata.commandId}`)
      : this.ids.next();
    await this.run({
      type: 'CreateSession',
      data: {
        sessionId,
        title: dto.title,
        provider: dto.provider ?? 'claude-code',
        model: dto.model ?? 'default',
        environment: dto.environment ?? 'docker-linux',
        createdBy: null,
        forkedFrom: dto.forkedFrom ?? null,
        repos,
      },
      metadata,
    });
    // A fork starts with its snapshot's files in its own workspace.
    if (dto.forkedFrom)
      await this.snapshots.seed(dto.forkedFrom.sessionId, dto.forkedFrom.snapshotId, sessionId);
    if (this.config.boxes) await this.boxes.provision(sessionId);
    return this.get(sessionId);
  }

  /**
   * A person's Fork on a snapshot: a new session like this one (provider, model, environment)
   * that starts with the snapshot's files. A person is not an agent: no limits, no approval.
   */
  async fork(
    sessionId: string,
    snapshotId: string,
    title: string | undefined,
    caller: Caller,
  ): Promise<SessionView> {
    const source = this.get(sessionId);
    if (!this.snapshots.has(sessionId, snapshotId)) {
      throw new DomainError(
        ErrorCode.NotFound,
        `session ${sessionId} has no snapshot ${snapshotId}`,
      );
    }
    return this.create(
      {
        title: title ?? forkTitle(source.title),
        provider: source.provider,
        model: source.model,
        environment: source.environment,
        forkedFrom: { sessionId, snapshotId },
      },
      caller,
    );
  }

  async rename(sessionId: string, title: string, caller: Caller): Promise<SessionView> {
    await this.run({
      type: 'SetSessionTitle',
      data: { sessionId, title },
      metadata: this.metadata(caller),
    });
    return this.get(sessionId);
  }

  async stop(sessionId: string, reason: string | undefined, caller: Caller): Promise<SessionView> {
    // The reactions to the stop (an agent-created session frees its places in the limits)
    // are done when it answers, so "stop one, create another" works at once.
    await this.run(
      { type: 'StopSession', data: { sessionId, reason }, metadata: this.metadata(caller) },
      { reactions: true },
    );
    // The running turn ends before the box freezes; queued prompts wait for the resume.
    await this.agent.stopped(sessionId, caller.actor);
    if (this.config.boxes) await this.boxes.freeze(sessionId);
    return this.get(sessionId);
  }

  async resume(sessionId: string, caller: Caller): Promise<SessionView> {
    await this.run({ type: 'ResumeSession', data: { sessionId }, metadata: this.metadata(caller) });
    if (this.config.boxes) await this.boxes.thaw(sessionId);
    await this.agent.resumed(sessionId);
    return this.get(sessionId);
  }

  /** Archive or unarchive: hidden from the sidebar's default view, or shown again. */
  async setArchived(sessionId: string, archived: boolean, caller: Caller): Promise<SessionView> {
    const type = archived ? 'ArchiveSession' : 'UnarchiveSession';
    await this.run({ type, data: { sessionId }, metadata: this.metadata(caller) });
    return this.get(sessionId);
  }

  /** Refused while it runs; its box and snapshot blobs go in the reaction (DeletedSessions). */
  async delete(sessionId: string, caller: Caller): Promise<void> {
    const metadata = this.metadata(caller);
    await this.run({ type: 'DeleteSession', data: { sessionId }, metadata }, { reactions: true });
  }

  /** Every session in the order they were created, each with the parent it nests under. */
  list(): SessionView[] {
    const sessions = this.sidebar().list();
    const titles = new Map(sessions.map((s) => [s.id, s.title]));
    const details = sessionDetailsQueries(this.readModels);
    return sessions.map((s) => ({
      ...s,
      childOf: childOf(s, titles.get(s.parentId ?? '')),
      box: details.get(s.id)?.box ?? null,
    }));
  }

  /** Without `archived`, archived sessions are left out (their children show as roots). */
  tree(options: { archived?: boolean } = {}): SidebarNode[] {
    const all = this.sidebar().list();
    return buildTree(options.archived === true ? all : all.filter((s) => !s.archived));
  }

  get(sessionId: string): SessionView {
    const session = requireSession(this.readModels, sessionId);
    const parent = session.parentId ? this.sidebar().get(session.parentId) : null;
    const box = sessionDetailsQueries(this.readModels).get(sessionId)?.box ?? null;
    return { ...session, childOf: childOf(session, parent?.title), box };
  }

  /** The agent's conversation and the action markers, interleaved where each happened. */
  transcript(sessionId: string, after?: number, limit?: number): TranscriptPage {
    this.get(sessionId);
    return transcriptQueries(this.readModels).page(sessionId, { after, limit });
  }

  notifications(sessionId: string, after?: number, limit?: number): NotificationPage {
    this.get(sessionId);
    return notificationQueries(this.readModels).page(sessionId, { after, limit });
  }

  /** Runs a command and waits until the read models show it (read-your-writes). */
  private async run(command: SessionCommand, options: { reactions?: boolean } = {}) {
    await this.bus.execute(sessionDecider, sessionStream(command.data.sessionId), command, options);
  }

  private metadata(caller: Caller): CommandMetadata {
    return this.bus.metadata(caller.actor, caller.idempotencyKey);
  }

  private sidebar() {
    return sidebarQueries(this.readModels);
  }
}

function childOf(session: SidebarSession, parentTitle: string | undefined): SessionView['childOf'] {
  if (session.parentId === null || parentTitle === undefined) return null;
  return { sessionId: session.parentId, title: parentTitle };
}

/** "<title> (fork)", kept within the characters a title may have. */
function forkTitle(title: string): string {
  const suffix = ' (fork)';
  return title.length + suffix.length <= TITLE_MAX_LENGTH
    ? title + suffix
    : `${title.slice(0, TITLE_MAX_LENGTH - 1 - suffix.length)}…${suffix}`;
}
