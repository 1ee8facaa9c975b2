import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  sessionDecider,
  sessionStream,
  type Actor,
  type CommandMetadata,
  type SessionCommand,
} from '@sessionboxer/domain';
import { CommandHandler, deterministicUuid } from '@sessionboxer/event-store';
import {
  sidebarQueries,
  transcriptMarkerQueries,
  type MarkerPage,
  type ProjectionRunner,
  type SidebarNode,
  type SidebarSession,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { Clock, IdGenerator } from '../infrastructure/clock';
import { PROJECTION_RUNNER, READ_MODELS } from '../infrastructure/tokens';
import type { CreateSessionDto } from './dto/create-session.dto';

/** A session as the API shows it: its sidebar row with the parent it nests under. */
export type SessionView = SidebarSession & { childOf: { sessionId: string; title: string } | null };

/** Who asked, and the caller's idempotency key when it sent one. */
export interface Caller {
  actor: Actor;
  idempotencyKey?: string;
}

const MAX_KEY = 200;

/** The session use cases of the admin API: a command, then a read once projections caught up. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly commands: CommandHandler,
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async create(dto: CreateSessionDto, caller: Caller): Promise<SessionView> {
    const metadata = this.metadata(caller);
    if (dto.forkedFrom && !this.sidebar().get(dto.forkedFrom.sessionId)) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        `forkedFrom.sessionId: session ${dto.forkedFrom.sessionId} does not exist`,
      );
    }
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
      },
      metadata,
    });
    return this.get(sessionId);
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
    await this.run({
      type: 'StopSession',
      data: { sessionId, reason },
      metadata: this.metadata(caller),
    });
    return this.get(sessionId);
  }

  async resume(sessionId: string, caller: Caller): Promise<SessionView> {
    await this.run({ type: 'ResumeSession', data: { sessionId }, metadata: this.metadata(caller) });
    return this.get(sessionId);
  }

  /** Every session in the order they were created, each with the parent it nests under. */
  list(): SessionView[] {
    const sessions = this.sidebar().list();
    const titles = new Map(sessions.map((s) => [s.id, s.title]));
    return sessions.map((s) => ({ ...s, childOf: childOf(s, titles.get(s.parentId ?? '')) }));
  }

  tree(): SidebarNode[] {
    return this.sidebar().tree();
  }

  get(sessionId: string): SessionView {
    const session = this.sidebar().get(sessionId);
    if (!session) throw new DomainError(ErrorCode.NotFound, `session ${sessionId} does not exist`);
    const parent = session.parentId ? this.sidebar().get(session.parentId) : null;
    return { ...session, childOf: childOf(session, parent?.title) };
  }

  transcript(sessionId: string, after?: number, limit?: number): MarkerPage {
    this.get(sessionId);
    return transcriptMarkerQueries(this.readModels).page(sessionId, { after, limit });
  }

  /** Runs a command and waits until the read models show it (read-your-writes). */
  private async run(command: SessionCommand): Promise<void> {
    const result = await this.commands.handle(
      sessionDecider,
      sessionStream(command.data.sessionId),
      command,
    );
    if (result.position !== null) await this.runner.waitForPosition(result.position);
  }

  private metadata(caller: Caller): CommandMetadata {
    const key = caller.idempotencyKey;
    if (key !== undefined && (key.length > MAX_KEY || /[^\x21-\x7e]/.test(key))) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        `Idempotency-Key must be 1–${MAX_KEY} printable ASCII characters without spaces`,
      );
    }
    const commandId = key ? deterministicUuid(`${actorKey(caller.actor)}/${key}`) : this.ids.next();
    return { commandId, at: this.clock.now().toISOString(), actor: caller.actor };
  }

  private sidebar() {
    return sidebarQueries(this.readModels);
  }
}

function actorKey(actor: Actor): string {
  switch (actor.kind) {
    case 'person':
      return `person:${actor.id}`;
    case 'agent':
      return `agent:${actor.sessionId}`;
    case 'api-key':
      return `api-key:${actor.keyId}`;
    case 'system':
      return `system:${actor.id}`;
  }
}

function childOf(session: SidebarSession, parentTitle: string | undefined): SessionView['childOf'] {
  if (session.parentId === null || parentTitle === undefined) return null;
  return { sessionId: session.parentId, title: parentTitle };
}
