import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { BOX_PATHS, type WhoAmI } from '@sessionboxer/mcp-adapters';
import {
  conversationQueries,
  pullRequestQueries,
  sessionDetailsQueries,
  sidebarQueries,
  verificationQueries,
  type ConversationDoc,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { sessionConversationId } from '../agent';
import type { AppConfig } from '../config';
import { APP_CONFIG, READ_MODELS } from '../infrastructure/tokens';
import { PolicyService } from '../settings';
import { SESSIONBOXER_VERSION } from '../version';

/** The fields of whoami that `.sessionboxer/session.json` carries (the spec's list). */
const SESSION_FILE_FIELDS = [
  'id',
  'title',
  'url',
  'provider',
  'model',
  'environment',
  'guest',
  'createdAt',
  'forkedFrom',
  'createdBy',
  'branch',
  'repos',
  'snapshotCount',
  'sessionboxerVersion',
  'agentTools',
] as const satisfies readonly (keyof WhoAmI)[];

/** Builds the session object of `whoami` (and of session.json) from the read models. */
@Injectable()
export class WhoAmIBuilder {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly policy: PolicyService,
  ) {}

  async build(sessionId: string): Promise<WhoAmI> {
    const sidebar = sidebarQueries(this.readModels);
    const s = sidebar.get(sessionId);
    if (!s) throw new DomainError(ErrorCode.NotFound, `session ${sessionId} does not exist`);
    const details = sessionDetailsQueries(this.readModels).get(sessionId);
    const titleOf = (id: string): string => sidebar.get(id)?.title ?? '(unknown session)';
    const conversation = conversationQueries(this.readModels).get(sessionConversationId(sessionId));
    return {
      id: s.id,
      title: s.title,
      url: `${this.config.publicUrl}/sessions/${s.id}`,
      provider: s.provider,
      model: s.model,
      environment: s.environment,
      guest: guestOf(s.environment),
      createdAt: s.createdAt,
      forkedFrom: s.forkedFrom && { ...s.forkedFrom, title: titleOf(s.forkedFrom.sessionId) },
      createdBy: s.createdBy && {
        sessionId: s.createdBy.sessionId,
        title: titleOf(s.createdBy.sessionId),
      },
      branch: s.branch ?? null,
      snapshotCount: details?.snapshotCount ?? 0,
      sessionboxerVersion: SESSIONBOXER_VERSION,
      agentTools: (await this.policy.forCall(sessionId)).agentTools,
      status: agentStatus(s.status, details?.box?.status === 'failed', conversation),
      usage: conversation?.usage ?? null,
      context: contextOf(conversation),
      queueLength: conversation?.queued ?? 0,
      panes: details?.lastPane?.shown ? [details.lastPane.pane] : [],
      terminals: (details?.terminals ?? []).map(({ id, createdAt, exitCode }) => ({
        id,
        createdAt,
        exitCode,
      })),
      prs: pullRequestQueries(this.readModels).list(sessionId),
      verification: verificationQueries(this.readModels).summary(sessionId),
      repos: (s.repos ?? []).map((name) => ({ name, path: `${BOX_PATHS.workspace}/${name}` })),
    };
  }

  async sessionFile(sessionId: string): Promise<Record<string, unknown>> {
    const who = await this.build(sessionId);
    return Object.fromEntries(SESSION_FILE_FIELDS.map((k) => [k, who[k]]));
  }
}

/** stopped and error come from the session and its box; running and idle from its agent. */
function agentStatus(session: string, boxFailed: boolean, c: ConversationDoc | null): string {
  if (session === 'stopped') return 'stopped';
  if (boxFailed) return 'error';
  return c?.currentTurn != null ? 'running' : 'idle';
}

function contextOf(c: ConversationDoc | null): WhoAmI['context'] {
  if (!c?.context) return null;
  const { usedTokens, windowTokens } = c.context;
  const percent = windowTokens ? Math.round((usedTokens / windowTokens) * 1000) / 10 : null;
  return { usedTokens, windowTokens, percent };
}

function guestOf(environment: WhoAmI['environment']): WhoAmI['guest'] {
  if (environment === 'qemu-windows') return { os: 'windows', workspace: 'C:\\workspace' };
  if (environment === 'qemu-macos') return { os: 'macos', workspace: '/Users/agent/workspace' };
  return null;
}
