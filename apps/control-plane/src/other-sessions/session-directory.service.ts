import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type Actor } from '@sessionboxer/domain';
import {
  conversationQueries,
  sessionDetailsQueries,
  sidebarQueries,
  type SidebarSession,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { sessionConversationId } from '../agent';
import { SessionAgent } from '../agent';
import type { AppConfig } from '../config';
import { APP_CONFIG, READ_MODELS } from '../infrastructure/tokens';
import { SessionsService } from '../sessions';
import { ChildSessions } from './child-sessions.service';
import { resolveSession } from './session-refs';
import { waitUntil } from './wait';

/** The last thing an agent said, as session_get and session_wait show it. */
export const REPLY_CAP = 2_000;

/**
 * Other sessions as an agent sees them: the list, one session's summary, messages to its
 * agent, waiting for it, and stopping the ones this agent created.
 */
@Injectable()
export class SessionDirectory {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly agent: SessionAgent,
    private readonly sessions: SessionsService,
    private readonly children: ChildSessions,
  ) {}

  list(callerId: string) {
    const all = this.all();
    const titles = new Map(all.map((s) => [s.id, s.title]));
    return all.map((s) => ({
      ...this.summary(s, titles),
      self: s.id === callerId,
      mine: s.createdBy?.sessionId === callerId,
    }));
  }

  get(callerId: string, ref: string) {
    const s = this.resolve(ref);
    return {
      ...this.summary(s, new Map(this.all().map((other) => [other.id, other.title]))),
      self: s.id === callerId,
      mine: s.createdBy?.sessionId === callerId,
      lastReply: this.lastReply(s.id),
    };
  }

  async message(callerId: string, ref: string, text: string, when: 'now' | 'queue', key: string) {
    const target = this.resolve(ref);
    if (target.id === callerId) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        'a session cannot message itself: queue_add is for a follow-up of your own',
      );
    }
    const status = this.status(target);
    if (status === 'error')
      throw new DomainError(
        ErrorCode.InvalidState,
        `session “${target.title}” is in error (its box failed), so its agent cannot take a message`,
      );
    if (status === 'stopped' && when === 'now') {
      throw new DomainError(
        ErrorCode.InvalidState,
        `session “${target.title}” is stopped; pass when: "queue" to leave the message for when it is resumed`,
      );
    }
    const from: Actor = { kind: 'agent', sessionId: callerId };
    const receipt = await this.agent.prompt(target.id, {
      text,
      from,
      key: `message/${key}`,
      hop: this.children.nextHop(callerId),
    });
    return {
      sessionId: target.id,
      title: target.title,
      delivery: receipt.status === 'running' ? 'prompted' : 'queued',
    };
  }

  async wait(callerId: string, ref: string, seconds: number) {
    const target = this.resolve(ref);
    if (target.id === callerId)
      throw new DomainError(ErrorCode.ValidationFailed, 'a session cannot wait for itself');
    return waitUntil(seconds, () => {
      const c = conversationQueries(this.readModels).get(sessionConversationId(target.id));
      const stillRunning =
        c !== null &&
        (c.currentTurn !== null || (c.queued > 0 && this.status(target) !== 'stopped'));
      const value = {
        sessionId: target.id,
        title: target.title,
        still_running: stillRunning,
        status: this.status(target),
        lastReply: this.lastReply(target.id),
      };
      return { done: !stillRunning, value };
    });
  }

  async stop(callerId: string, ref: string, key: string) {
    const target = this.resolve(ref);
    const actor: Actor = { kind: 'agent', sessionId: callerId };
    // The decider refuses these for a running session; a stopped one must not say "stopped"
    // to an agent that had no right to stop it.
    if (target.id === callerId) {
      throw new DomainError(
        ErrorCode.Forbidden,
        'a session cannot stop itself: end your turn instead',
      );
    }
    if (target.createdBy?.sessionId !== callerId) {
      throw new DomainError(
        ErrorCode.Forbidden,
        `session ${target.id} is not yours to stop: an agent stops only the sessions it created`,
      );
    }
    if (this.status(target) !== 'stopped') {
      await this.sessions.stop(target.id, 'stopped by the agent that created it', {
        actor,
        idempotencyKey: `stop/${key}`,
      });
    }
    return { sessionId: target.id, title: target.title, status: 'stopped' };
  }

  /**
   * The spec's listing. createdBy and forkedFrom carry the other session's title (as whoami's
   * do), so a client can show "child of …" without another call.
   */
  private summary(s: SidebarSession, titles: ReadonlyMap<string, string>) {
    const c = conversationQueries(this.readModels).get(sessionConversationId(s.id));
    const titleOf = (id: string) => titles.get(id) ?? '(unknown session)';
    return {
      id: s.id,
      title: s.title,
      url: `${this.config.publicUrl}/sessions/${s.id}`,
      status: this.status(s),
      provider: s.provider,
      environment: s.environment,
      repos: s.repos ?? [],
      createdAt: s.createdAt,
      createdBy: s.createdBy && {
        sessionId: s.createdBy.sessionId,
        title: titleOf(s.createdBy.sessionId),
      },
      forkedFrom: s.forkedFrom && { ...s.forkedFrom, title: titleOf(s.forkedFrom.sessionId) },
      queueLength: c?.queued ?? 0,
    };
  }

  private status(s: SidebarSession): string {
    const fresh = sidebarQueries(this.readModels).get(s.id) ?? s;
    if (fresh.status === 'stopped') return 'stopped';
    if (sessionDetailsQueries(this.readModels).get(s.id)?.box?.status === 'failed') return 'error';
    const c = conversationQueries(this.readModels).get(sessionConversationId(s.id));
    return c?.currentTurn != null ? 'running' : 'idle';
  }

  private lastReply(sessionId: string): string | null {
    const reply =
      conversationQueries(this.readModels).get(sessionConversationId(sessionId))?.lastReply?.text ??
      null;
    return reply === null || reply.length <= REPLY_CAP
      ? reply
      : `${reply.slice(0, REPLY_CAP - 1)}…`;
  }

  private resolve(ref: string): SidebarSession {
    return resolveSession(this.all(), ref);
  }

  private all(): SidebarSession[] {
    return sidebarQueries(this.readModels).list();
  }
}
