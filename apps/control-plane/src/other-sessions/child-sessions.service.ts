import { Inject, Injectable } from '@nestjs/common';
import {
  CHILDREN_MAX,
  childrenLedger,
  GLOBAL_LEDGER,
  ledgerDecider,
  sessionDecider,
  sessionStream,
  type Actor,
} from '@sessionboxer/domain';
import { deterministicUuid } from '@sessionboxer/event-store';
import { sidebarQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { SessionAgent } from '../agent/session-agent.service';
import { TurnDispatcher } from '../agent/turn-dispatcher';
import { BoxLifecycle } from '../box-lifecycle/box-lifecycle.service';
import type { AppConfig } from '../config';
import { CommandBus } from '../infrastructure/command-bus';
import { APP_CONFIG, READ_MODELS } from '../infrastructure/tokens';
import { SettingsService } from '../settings/settings.service';

/** What an agent asks for with session_create (or a person allows on its card). */
export interface ChildRequest {
  title: string;
  firstPrompt: string;
  provider: string;
  /** The hop of the first prompt: the creating turn's + 1. */
  hop: number;
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
  ) {}

  /** Creates the session now (the caller checked the policy, or a person allowed it). */
  async create(creatorId: string, request: ChildRequest, key: string): Promise<CreatedChild> {
    const settings = await this.settings.current();
    const sessionId = deterministicUuid(`child/${creatorId}/${key}`);
    const system: Actor = { kind: 'agent', sessionId: creatorId };
    const title = request.title;
    await this.take(childrenLedger(creatorId), sessionId, CHILDREN_MAX, title, system, key);
    try {
      await this.take(
        GLOBAL_LEDGER,
        sessionId,
        settings.sessionboxer.globalCap,
        title,
        system,
        key,
      );
    } catch (e) {
      await this.free(creatorId, sessionId, 'the global cap was reached', system);
      throw e;
    }
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'CreateSession',
      data: {
        sessionId,
        title,
        provider: request.provider,
        model: settings.defaults.model,
        environment: settings.defaults.environment,
        createdBy: { sessionId: creatorId },
        forkedFrom: null,
      },
      metadata: this.bus.metadata(system, `create/${key}`),
    });
    if (this.config.boxes) await this.boxes.provision(sessionId);
    await this.agent.prompt(sessionId, {
      text: request.firstPrompt,
      from: system,
      key: `first-prompt/${key}`,
      hop: request.hop,
    });
    return { sessionId, title, url: `${this.config.publicUrl}/sessions/${sessionId}` };
  }

  /** An agent-created session stopped: it no longer counts against its creator or the cap. */
  async stopped(sessionId: string, actor: Actor): Promise<void> {
    const session = sidebarQueries(this.readModels).get(sessionId);
    if (session?.createdBy)
      await this.free(session.createdBy.sessionId, sessionId, 'stopped', actor);
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

  private async free(creatorId: string, sessionId: string, reason: string, actor: Actor) {
    for (const ledger of [childrenLedger(creatorId), GLOBAL_LEDGER]) {
      await this.bus.execute(ledgerDecider, ledger, {
        type: 'FreePlace',
        data: { ledger, sessionId, reason },
        metadata: this.bus.metadata(actor),
      });
    }
  }
}

/** A title from the first prompt's first line, when the agent gave none. */
export function titleFrom(prompt: string): string {
  const line = prompt.trim().split('\n')[0].replace(/\s+/g, ' ');
  return line.length <= 60 ? line : `${line.slice(0, 59)}…`;
}
