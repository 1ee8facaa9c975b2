import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  repositoriesDecider,
  repositoriesStream,
  type Actor,
  type RepositoryCommand,
} from '@sessionboxer/domain';
import {
  repositoryQueries,
  sidebarQueries,
  type RepositoryDoc,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { CommandBus } from '../infrastructure/command-bus';
import { READ_MODELS } from '../infrastructure/tokens';
import { SettingsService } from '../settings';

/** A repository as one session has it: where it comes from, and the branch it may push. */
export interface SessionRepo {
  name: string;
  cloneUrl: string;
  defaultBranch: string;
  branch: string;
}

/** Global settings' repositories, and which of them a session has. */
@Injectable()
export class Repositories {
  constructor(
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly settings: SettingsService,
  ) {}

  list(): RepositoryDoc[] {
    return this.queries().list();
  }

  get(name: string): RepositoryDoc {
    const repo = this.queries().get(name);
    if (!repo) throw new DomainError(ErrorCode.NotFound, `there is no repository named ${name}`);
    return repo;
  }

  async execute(
    command: Pick<RepositoryCommand, 'type' | 'data'>,
    actor: Actor,
    key?: string,
  ): Promise<void> {
    await this.bus.execute(repositoriesDecider, repositoriesStream(), {
      ...command,
      metadata: this.bus.metadata(actor, key),
    } as RepositoryCommand);
  }

  /**
   * The names a new session asks for, each a repository of Global settings, or a refusal that
   * names the unknown ones (checked before anything is recorded, so nothing changes).
   */
  requireKnown(names: readonly string[] | undefined): string[] {
    const list = [...(names ?? [])];
    const unknown = list.filter((n) => typeof n !== 'string' || this.queries().get(n) === null);
    if (unknown.length > 0) {
      const known = this.list().map((r) => r.name);
      throw new DomainError(
        ErrorCode.ValidationFailed,
        `unknown repositor${unknown.length > 1 ? 'ies' : 'y'} ${unknown.map((n) => JSON.stringify(n)).join(', ')}: ` +
          (known.length > 0
            ? `Global settings list ${known.join(', ')}`
            : 'Global settings list none; add it under Settings → Repositories first'),
        { field: 'repos' },
      );
    }
    return list;
  }

  /** The session's repositories as they are in Global settings now (a removed one is left out). */
  ofSession(sessionId: string): SessionRepo[] {
    const session = sidebarQueries(this.readModels).get(sessionId);
    if (!session?.branch) return [];
    const branch = session.branch;
    return session.repos.flatMap((name) => {
      const repo = this.queries().get(name);
      return repo
        ? [{ name, cloneUrl: repo.cloneUrl, defaultBranch: repo.defaultBranch, branch }]
        : [];
    });
  }

  /** One repository of the session, or why the relay refuses it. */
  sessionRepo(sessionId: string, name: string): SessionRepo {
    const session = sidebarQueries(this.readModels).get(sessionId);
    if (!session?.repos.includes(name)) {
      throw new DomainError(
        ErrorCode.Forbidden,
        `this session has no repository ${name}: it has ${session?.repos.join(', ') || 'none'}`,
      );
    }
    const repo = this.ofSession(sessionId).find((r) => r.name === name);
    if (!repo) {
      throw new DomainError(
        ErrorCode.NotFound,
        `repository ${name} is no longer in Global settings`,
      );
    }
    return repo;
  }

  /** The forge token (Global settings' GitHub token), or null: only the control plane holds it. */
  async token(): Promise<string | null> {
    return (await this.settings.current()).github.token;
  }

  async gitIdentity(): Promise<{ name: string; email: string }> {
    const { gitIdentity } = await this.settings.current();
    return gitIdentity ?? { name: 'Sessionboxer agent', email: 'agent@sessionboxer.invalid' };
  }

  private queries() {
    return repositoryQueries(this.readModels);
  }
}
