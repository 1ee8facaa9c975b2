import { Inject, Injectable } from '@nestjs/common';
import {
  CHILDREN_MAX,
  DomainError,
  ErrorCode,
  childrenLedger,
  GLOBAL_LEDGER,
  ledgerDecider,
  sessionDecider,
  sessionStream,
  type Actor,
  type SessionEnvironment,
} from '@sessionboxer/domain';
import { deterministicUuid } from '@sessionboxer/event-store';
import { sidebarQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { SessionAgent } from '../agent';
import { TurnDispatcher } from '../agent';
import { BoxLifecycle } from '../boxes';
import type { AppConfig } from '../config';
import { CommandBus } from '../infrastructure/command-bus';
import { APP_CONFIG, READ_MODELS } from '../infrastructure/tokens';
import { SettingsService } from '../settings';
import { SnapshotsService, TurnSnapshots } from '../boxes';
import { Repositories } from '../repositories';

/** What an agent asks for with session_create (or a person allows on its card). */
export interface ChildRequest {
  title: string;
  firstPrompt: string;
  provider: string;
  /** The hop of the first prompt: the creating turn's + 1. */
  hop: number;
  /** Global settings' repositories to clone in (absent in approvals asked before repos). */
  repos?: string[];
  /**
   * The environment a person was shown on the approval card (the Global default when asked):
   * what they allowed is what is created. Absent: the Global default now.
   */
  environment?: SessionEnvironment;
}

export interface CreatedChild {
  sessionId: string;
  title: string;
  url: string;
}

/**
 * Sessions agents create. The limits are taken first, each in its own ledger stream (3 alive
 * per creating agent, the global cap), so they hold under any number of racing creates; a
 * place taken for a session that then could not be created is given back.
 */
@Injectable()
export class ChildSessions {
  constructor(
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: SettingsService,
    private readonly boxes: BoxLifecycle,
    private readonly agent: SessionAgent,
    private readonly turns: TurnDispatcher,
    private readonly snapshots: SnapshotsService,
    private readonly repositories: Repositories,
    private readonly turnSnapshots: TurnSnapshots,
  ) {}

  /** Creates the session now (the caller checked the policy, or a person allowed it). */
  async create(creatorId: string, request: ChildRequest, key: string): Promise<CreatedChild> {
    const sessionId = deterministicUuid(`child/${creatorId}/${key}`);
    const actor: Actor = { kind: 'agent', sessionId: creatorId };
    const repos = this.repositories.requireKnown(request.repos);
    await this.admit(creatorId, sessionId, request.title, key);
    const { title, provider, environment } = request;
    await this.record(sessionId, { title, provider, repos, environment }, creatorId, null, key);
    if (this.config.boxes) await this.boxes.provision(sessionId);
    await this.agent.prompt(sessionId, {
      text: request.firstPrompt,
      from: actor,
      key: `first-prompt/${key}`,
      hop: request.hop,
    });
    return { sessionId, title: request.title, url: this.url(sessionId) };
  }

  /**
   * session_fork: a snapshot of the caller taken now, and a new session (its child) that starts
   * with the snapshot's files, repositories and tools. Counts against the same limits.
   */
  async fork(
    creatorId: string,
    key: string,
    turn?: number,
  ): Promise<CreatedChild & { snapshotOrdinal: number | null }> {
    const creator = sidebarQueries(this.readModels).get(creatorId);
    if (!creator) throw new DomainError(ErrorCode.NotFound, `session ${creatorId} does not exist`);
    if (creator.environment !== 'docker-linux') {
      throw new DomainError(
        ErrorCode.InvalidState,
        'session_fork is not available in Windows and macOS sessions: they have no snapshots',
      );
    }
    const actor: Actor = { kind: 'agent', sessionId: creatorId };
    const sessionId = deterministicUuid(`fork/${creatorId}/${key}`);
    const title = `${creator.title} (fork)`;
    // From a turn: that turn's automatic snapshot (refused before any place is taken).
    const ofTurn = turn === undefined ? null : this.turnSnapshots.require(creatorId, turn);
    await this.admit(creatorId, sessionId, title, key);
    const snapshot = ofTurn ?? (await this.snapshots.take(creatorId, actor, `fork/${key}`));
    const origin = { sessionId: creatorId, snapshotId: snapshot.id };
    const spec = { title, provider: creator.provider, repos: creator.repos };
    await this.record(sessionId, spec, creatorId, origin, key);
    await this.snapshots.seed(creatorId, snapshot.id, sessionId);
    if (this.config.boxes) await this.boxes.provision(sessionId);
    const snapshotOrdinal = 'ordinal' in snapshot ? snapshot.ordinal : null;
    return { sessionId, title, url: this.url(sessionId), snapshotOrdinal };
  }

  /** Takes a place in the creator's ledger, then in the global one (giving back the first). */
  private async admit(creatorId: string, sessionId: string, title: string, key: string) {
    const settings = await this.settings.current();
    const actor: Actor = { kind: 'agent', sessionId: creatorId };
    await this.take(childrenLedger(creatorId), sessionId, CHILDREN_MAX, title, actor, key);
    try {
      await this.take(GLOBAL_LEDGER, sessionId, settings.sessionboxer.globalCap, title, actor, key);
    } catch (e) {
      await this.free(creatorId, sessionId, 'the global cap was reached', actor);
      throw e;
    }
  }

  private async record(
    sessionId: string,
    spec: { title: string; provider: string; repos: string[]; environment?: SessionEnvironment },
    creatorId: string,
    forkedFrom: { sessionId: string; snapshotId: string } | null,
    key: string,
  ) {
    const { defaults } = await this.settings.current();
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'CreateSession',
      data: {
        sessionId,
        title: spec.title,
        provider: spec.provider,
        model: defaults.model,
        environment: spec.environment ?? defaults.environment,
        createdBy: { sessionId: creatorId },
        forkedFrom,
        repos: spec.repos,
      },
      metadata: this.bus.metadata({ kind: 'agent', sessionId: creatorId }, `create/${key}`),
    });
  }

  private url(sessionId: string): string {
    return `${this.config.publicUrl}/sessions/${sessionId}`;
  }

  /** An agent-created session stopped: it no longer counts against its creator or the cap. */
  /** `key` (a reaction's) makes a repeated free the same commands, applied once. */
  async stopped(sessionId: string, actor: Actor, key?: string): Promise<void> {
    const session = sidebarQueries(this.readModels).get(sessionId);
    if (session?.createdBy)
      await this.free(session.createdBy.sessionId, sessionId, 'stopped', actor, key);
  }

  nextHop(creatorId: string): number {
    return this.turns.nextHop(creatorId);
  }

  private async take(
    ledger: string,
    sessionId: string,
    cap: number,
    title: string,
    actor: Actor,
    key: string,
  ) {
    await this.bus.execute(ledgerDecider, ledger, {
      type: 'TakePlace',
      data: { ledger, sessionId, cap, title },
      metadata: this.bus.metadata(actor, `place/${ledger}/${key}`),
    });
  }

  private async free(
    creatorId: string,
    sessionId: string,
    reason: string,
    actor: Actor,
    key?: string,
  ) {
    for (const ledger of [childrenLedger(creatorId), GLOBAL_LEDGER]) {
      await this.bus.execute(ledgerDecider, ledger, {
        type: 'FreePlace',
        data: { ledger, sessionId, reason },
        metadata: this.bus.metadata(actor, key && `${key}/${ledger}`),
      });
    }
  }
}

/** A title from the first prompt's first line, when the agent gave none. */
export function titleFrom(prompt: string): string {
  const line = prompt.trim().split('\n')[0].replace(/\s+/g, ' ');
  return line.length <= 60 ? line : `${line.slice(0, 59)}…`;
}
