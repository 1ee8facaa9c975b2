import type { PrWithItems } from '@sessionboxer/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  pullRequestDecider,
  prStream,
  sessionDecider,
  sessionStream,
  type Actor,
} from '@sessionboxer/domain';
import type { PrItem, PrSummary } from '@sessionboxer/mcp-adapters';
import { pullRequestQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { deterministicUuid } from '@sessionboxer/event-store';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { GitHubForge, type Forge, type ForgeItem, type ForgePr, type PrRef } from './forge';
import { CommandBus } from '../infrastructure/command-bus';
import { READ_MODELS } from '../infrastructure/tokens';
import { SettingsService } from '../settings';

const WATCHER: Actor = { kind: 'system', id: 'pr-watcher' };

/** A PR as the PRs pane shows it. */
export type { PrWithItems };

/** PRs attached to sessions: read from the forge, recorded as events, served from a read model. */
@Injectable()
export class PullRequests {
  private readonly logger = new Logger('PullRequests');

  constructor(
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly settings: SettingsService,
  ) {}

  /** The GitHub adapter with the token from settings; the API URL can be pointed elsewhere. */
  async forge(): Promise<Forge> {
    const { github } = await this.settings.current();
    return new GitHubForge({
      token: github.token ?? undefined,
      baseUrl: process.env.SESSIONBOXER_GITHUB_API_URL,
    });
  }

  async attach(sessionId: string, ref: PrRef, actor: Actor, key: string): Promise<PrSummary> {
    const forge = await this.forge();
    const pr = await forge.getPr(ref);
    await this.bus.execute(pullRequestDecider, prStream({ sessionId, ...ref }), {
      type: 'AttachPr',
      data: { sessionId, ...ref, url: pr.url, title: pr.title, state: pr.state },
      metadata: this.bus.metadata(actor, `${key}/attach`),
    });
    await this.record(sessionId, pr, await forge.listItems(pr), { notify: false });
    return this.get(sessionId, `${ref.owner}/${ref.repo}#${ref.number}`).pr;
  }

  list(sessionId: string): PrSummary[] {
    return pullRequestQueries(this.readModels).list(sessionId);
  }

  /** For people (the PRs pane): each PR with its checks and review items. */
  listWithItems(sessionId: string): PrWithItems[] {
    return pullRequestQueries(this.readModels).listWithItems(sessionId);
  }

  get(sessionId: string, prId: string): { pr: PrSummary; items: PrItem[] } {
    const found = pullRequestQueries(this.readModels).get(sessionId, prId);
    if (!found)
      throw new DomainError(
        ErrorCode.NotFound,
        `PR ${prId} is not attached to this session (pr_list shows those that are)`,
      );
    return found;
  }

  async markAddressed(
    sessionId: string,
    prId: string,
    itemIds: string[],
    actor: Actor,
    key: string,
  ) {
    const { pr } = this.get(sessionId, prId);
    await this.bus.execute(
      pullRequestDecider,
      prStream({ sessionId, owner: pr.owner, repo: pr.repo, number: pr.number }),
      {
        type: 'MarkPrItemsAddressed',
        data: { sessionId, owner: pr.owner, repo: pr.repo, number: pr.number, itemIds },
        metadata: this.bus.metadata(actor, key),
      },
    );
    return this.get(sessionId, prId);
  }

  /**
   * Records what the forge says of a PR (attach, poll, webhook). New review items and newly
   * failing checks notify the session.
   */
  async record(
    sessionId: string,
    pr: ForgePr,
    items: ForgeItem[],
    options = { notify: true },
  ): Promise<void> {
    const ref = { sessionId, owner: pr.owner, repo: pr.repo, number: pr.number };
    const stream = prStream(ref);
    await this.bus.execute(pullRequestDecider, stream, {
      type: 'RecordPrState',
      data: { ...ref, state: pr.state, title: pr.title },
      metadata: this.bus.metadata(WATCHER),
    });
    const result = await this.bus.execute(pullRequestDecider, stream, {
      type: 'RecordPrItems',
      data: { ...ref, items: items },
      metadata: this.bus.metadata(WATCHER),
    });
    const news = result.events.filter(
      (e) => e.type === 'PrItemReceived' || (e.type === 'PrCheckChanged' && isFailure(e.data)),
    );
    if (options.notify && news.length > 0)
      await this.notify(sessionId, pr, news.length, result.events[0]?.id);
  }

  private async notify(
    sessionId: string,
    pr: ForgePr,
    count: number,
    eventId: string | undefined,
  ): Promise<void> {
    const text = `${pr.owner}/${pr.repo}#${pr.number}: ${count} new review item${count === 1 ? '' : 's'} or failing check${count === 1 ? '' : 's'}`;
    await this.bus
      .execute(sessionDecider, sessionStream(sessionId), {
        type: 'Notify',
        data: {
          sessionId,
          notificationId: deterministicUuid(`pr-notify/${eventId ?? text}`),
          text,
          source: 'pr',
        },
        metadata: this.bus.metadata(WATCHER),
      })
      .catch((e: unknown) => this.logger.warn(`could not notify ${sessionId}: ${String(e)}`));
  }
}

function isFailure(data: unknown): boolean {
  const conclusion = (data as { conclusion?: unknown }).conclusion;
  return (
    typeof conclusion === 'string' &&
    /fail|error|timed_out|cancel|action_required/i.test(conclusion)
  );
}
