import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  FOLLOW_GLOBAL,
  sessionPolicyDecider,
  sessionPolicyStream,
  type Actor,
  type AgentToolsPolicy,
  type SessionCreationPolicy,
  type SessionPolicy,
} from '@sessionboxer/domain';
import type { PolicyView } from '@sessionboxer/contracts';
import type { PolicyInForce } from '@sessionboxer/mcp-adapters';
import type { EventStore } from '@sessionboxer/event-store';
import {
  conversationQueries,
  sessionPolicyQueries,
  sidebarQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { CommandBus } from '../../infrastructure/command-bus';
import { EVENT_STORE, READ_MODELS } from '../../infrastructure/tokens';
import { lastUpTo, SettingsService } from '../settings.service';

/** Policies of turns looked up lately (a memo of the history, not a second truth). */
const REMEMBERED_TURNS = 1_000;

/**
 * The sessionboxer policy. A change applies to the running agent at its NEXT turn: a turn's
 * calls run under the policy as it was recorded when the turn started, which the history says
 * (the settings and the session's policy up to the TurnStarted's position), so a restart or
 * another instance answers the same.
 */
@Injectable()
export class PolicyService {
  private readonly turns = new Map<string, PolicyInForce>();

  constructor(
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly settings: SettingsService,
  ) {}

  async view(sessionId: string): Promise<PolicyView> {
    this.session(sessionId);
    const own = sessionPolicyQueries(this.readModels).get(sessionId);
    return { own, effective: effective(own, (await this.settings.current()).sessionboxer) };
  }

  async set(sessionId: string, patch: Partial<SessionPolicy>, actor: Actor): Promise<PolicyView> {
    this.session(sessionId);
    await this.bus.execute(sessionPolicyDecider, sessionPolicyStream(sessionId), {
      type: 'SetSessionPolicy',
      data: { sessionId, ...patch },
      metadata: this.bus.metadata(actor),
    });
    return this.view(sessionId);
  }

  /** The policy a call of this session's agent runs under: its running turn's, else today's. */
  async forCall(sessionId: string): Promise<PolicyInForce> {
    // A session's agent's conversation has the session's id.
    const running = conversationQueries(this.readModels).get(sessionId)?.running;
    if (!running) return this.current(sessionId);
    const key = `${sessionId}@${running.position}`;
    const known = this.turns.get(key);
    if (known) return known;
    const policy = await this.at(sessionId, running.position);
    this.turns.set(key, policy);
    if (this.turns.size > REMEMBERED_TURNS) this.turns.delete(this.turns.keys().next().value!);
    return policy;
  }

  /** The policy in force once the event at global `position` was recorded. */
  private async at(sessionId: string, position: number): Promise<PolicyInForce> {
    const [settings, last] = await Promise.all([
      this.settings.at(position),
      lastUpTo(this.store, sessionPolicyStream(sessionId), position),
    ]);
    const own = last ? (last.data as SessionPolicy) : FOLLOW_GLOBAL;
    const { agentTools, source } = effective(own, settings.sessionboxer);
    return { agentTools, source: source.agentTools };
  }

  /**
   * The settings' sessionboxer section as it applies to this session's agent (settings_get):
   * the agent tools its calls run under and its own session-creation policy, else the global.
   */
  async sessionboxerFor(
    sessionId: string,
  ): Promise<{ agentTools: AgentToolsPolicy; sessionCreation: SessionCreationPolicy }> {
    const [{ agentTools }, { effective }] = await Promise.all([
      this.forCall(sessionId),
      this.view(sessionId),
    ]);
    return { agentTools, sessionCreation: effective.sessionCreation };
  }

  private async current(sessionId: string): Promise<PolicyInForce> {
    const { effective } = await this.view(sessionId);
    return { agentTools: effective.agentTools, source: effective.source.agentTools };
  }

  private session(sessionId: string): void {
    if (!sidebarQueries(this.readModels).get(sessionId)) {
      throw new DomainError(ErrorCode.NotFound, `session ${sessionId} does not exist`, {
        sessionId,
      });
    }
  }
}

/** A session's own values over the global ones, and where each came from. */
function effective(
  own: SessionPolicy,
  global: { agentTools: AgentToolsPolicy; sessionCreation: SessionCreationPolicy },
): PolicyView['effective'] {
  return {
    agentTools: own.agentTools ?? global.agentTools,
    sessionCreation: own.sessionCreation ?? global.sessionCreation,
    source: {
      agentTools: own.agentTools === null ? 'global' : 'session',
      sessionCreation: own.sessionCreation === null ? 'global' : 'session',
    },
  };
}
