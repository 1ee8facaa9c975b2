import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  sessionPolicyDecider,
  sessionPolicyStream,
  type Actor,
  type AgentToolsPolicy,
  type SessionCreationPolicy,
  type SessionPolicy,
} from '@sessionboxer/domain';
import type { PolicyView } from '@sessionboxer/contracts';
import type { PolicyInForce } from '@sessionboxer/mcp-adapters';
import {
  sessionPolicyQueries,
  sidebarQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { CommandBus } from '../../infrastructure/command-bus';
import { READ_MODELS } from '../../infrastructure/tokens';
import { SettingsService } from '../settings.service';

/**
 * The sessionboxer policy. A change applies to the running agent at its NEXT turn: the policy
 * in force is taken when a turn starts and kept for that turn's calls (in memory: after a
 * restart a running turn's calls see the policy as it is now).
 */
@Injectable()
export class PolicyService {
  private readonly atTurnStart = new Map<string, PolicyInForce>();

  constructor(
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly settings: SettingsService,
  ) {}

  async view(sessionId: string): Promise<PolicyView> {
    this.session(sessionId);
    const own = sessionPolicyQueries(this.readModels).get(sessionId);
    const global = (await this.settings.current()).sessionboxer;
    return {
      own,
      effective: {
        agentTools: own.agentTools ?? global.agentTools,
        sessionCreation: own.sessionCreation ?? global.sessionCreation,
        source: {
          agentTools: own.agentTools === null ? 'global' : 'session',
          sessionCreation: own.sessionCreation === null ? 'global' : 'session',
        },
      },
    };
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

  /** A turn starts: its calls run under the policy as it is now. */
  async turnStarted(sessionId: string): Promise<void> {
    this.atTurnStart.set(sessionId, await this.current(sessionId));
  }

  turnEnded(sessionId: string): void {
    this.atTurnStart.delete(sessionId);
  }

  /** The policy a call of this session's agent runs under. */
  async forCall(sessionId: string): Promise<PolicyInForce> {
    return this.atTurnStart.get(sessionId) ?? this.current(sessionId);
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
