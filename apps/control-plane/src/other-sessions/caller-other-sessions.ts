import type { ApprovalView, CreateSessionAnswer, SessionListing } from '@sessionboxer/mcp-adapters';
import { sidebarQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { Inject, Injectable } from '@nestjs/common';
import { READ_MODELS } from '../infrastructure/tokens';
import { PolicyService } from '../settings';
import { SettingsService } from '../settings';
import { Repositories } from '../repositories';
import { Approvals } from './approvals.service';
import { ChildSessions, titleFrom } from './child-sessions.service';
import { SessionDirectory } from './session-directory.service';

export interface OtherSessionsDeps {
  directory: SessionDirectory;
  children: ChildSessions;
  approvals: Approvals;
  policy: PolicyService;
  settings: SettingsService;
  readModels: SqliteReadModelStore;
  repositories: Repositories;
}

/**
 * The Other sessions tools for ONE call of ONE session's agent (the session from its box's
 * socket). Keys of everything a call creates derive from the call id, so a resent call
 * creates, messages or stops once.
 */
export class CallerOtherSessions {
  constructor(
    private readonly deps: OtherSessionsDeps,
    private readonly sessionId: string,
    private readonly callId: string,
  ) {}

  listSessions(): Promise<SessionListing[]> {
    return Promise.resolve(this.deps.directory.list(this.sessionId));
  }

  getSession(session: string) {
    return Promise.resolve(this.deps.directory.get(this.sessionId, session));
  }

  async createSession(args: {
    first_prompt: string;
    title?: string;
    provider?: string;
    repos?: string[];
  }): Promise<CreateSessionAnswer> {
    const settings = await this.deps.settings.current();
    const request = {
      title: args.title ?? titleFrom(args.first_prompt),
      firstPrompt: args.first_prompt,
      provider: args.provider ?? settings.defaults.provider,
      hop: this.deps.children.nextHop(this.sessionId),
      repos: args.repos ?? [],
    };
    // An unknown repository is refused now, before a person is asked to allow it.
    this.deps.repositories.requireKnown(request.repos);
    const { effective } = await this.deps.policy.view(this.sessionId);
    const key = `call/${this.callId}`;
    if (effective.sessionCreation === 'ask') {
      const provider = sidebarQueries(this.deps.readModels).get(this.sessionId)?.provider ?? '';
      // The card shows what will be created and under which policy: the environment is fixed now.
      const asked = { ...request, environment: settings.defaults.environment };
      const under = effective.source.sessionCreation;
      return this.deps.approvals.requestChild(this.sessionId, provider, asked, key, under);
    }
    return { pending: false, ...(await this.deps.children.create(this.sessionId, request, key)) };
  }

  messageSession(session: string, text: string, when: 'now' | 'queue') {
    return this.deps.directory.message(this.sessionId, session, text, when, `call/${this.callId}`);
  }

  waitSession(session: string, seconds: number) {
    return this.deps.directory.wait(this.sessionId, session, seconds);
  }

  stopSession(session: string) {
    return this.deps.directory.stop(this.sessionId, session, `call/${this.callId}`);
  }

  /** `turn`: from the snapshot taken when that turn ended, instead of one taken now. */
  async forkSession(turn?: number) {
    const forked = await this.deps.children.fork(this.sessionId, `call/${this.callId}`, turn);
    return { pending: false as const, ...forked };
  }

  waitApproval(id: string, seconds: number): Promise<ApprovalView> {
    return this.deps.approvals.wait(this.sessionId, id, seconds);
  }
}

/** The services the Other sessions tools need, in one injectable. */
@Injectable()
export class OtherSessions implements OtherSessionsDeps {
  constructor(
    readonly directory: SessionDirectory,
    readonly children: ChildSessions,
    readonly approvals: Approvals,
    readonly policy: PolicyService,
    readonly settings: SettingsService,
    @Inject(READ_MODELS) readonly readModels: SqliteReadModelStore,
    readonly repositories: Repositories,
  ) {}
}
