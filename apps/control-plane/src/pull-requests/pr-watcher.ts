import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  pullRequestQueries,
  sidebarQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import type { AppConfig } from '../config';
import { PrPoller, type AttachedPr, type Forge, type PrRef } from './forge';
import { APP_CONFIG, READ_MODELS } from '../infrastructure/tokens';
import { PullRequests } from './pull-requests.service';
import { SettingsService } from '../settings';

/**
 * Keeps attached PRs current: polls the forge every `github.pollSeconds`, and at once for a PR
 * a webhook names. Everything new becomes events (and notifications) through PullRequests.
 */
@Injectable()
export class PrWatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private poller: PrPoller | null = null;
  private forge: Forge | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly prs: PullRequests,
    private readonly settings: SettingsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { github } = await this.settings.current();
    this.poller = new PrPoller({
      forge: () => this.forge,
      intervalMs: github.pollSeconds * 1000,
      listAttached: () => this.listAttached(),
      onUpdate: (sessionId, pr, items) => this.prs.record(sessionId, pr, items),
      logger: new Logger('PrWatcher'),
    });
    this.forge = await this.prs.forge();
    this.poller.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.poller?.stop();
  }

  /** The sessions a PR is attached to (for a webhook). */
  sessionsWith(ref: PrRef): string[] {
    const id = `${ref.owner}/${ref.repo}#${ref.number}`.toLowerCase();
    return this.attached()
      .filter((a) => `${a.owner}/${a.repo}#${a.number}`.toLowerCase() === id)
      .map((a) => a.sessionId);
  }

  async pollNow(sessionId: string, ref: PrRef): Promise<void> {
    this.forge = await this.prs.forge();
    await this.poller?.pollNow(sessionId, ref);
  }

  private async listAttached(): Promise<AttachedPr[]> {
    this.forge = await this.prs.forge();
    return this.attached();
  }

  private attached(): AttachedPr[] {
    const prs = pullRequestQueries(this.readModels);
    return sidebarQueries(this.readModels)
      .list()
      .filter((s) => s.status === 'running' || this.config.boxes === false)
      .flatMap((s) =>
        prs
          .list(s.id)
          .map((p) => ({ sessionId: s.id, owner: p.owner, repo: p.repo, number: p.number })),
      );
  }
}
