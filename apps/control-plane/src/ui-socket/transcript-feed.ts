import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { EventStore, Subscription } from '@sessionboxer/event-store';
import {
  lastPosition,
  transcriptQueries,
  type ProjectionRunner,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import type { WebSocket } from 'ws';
import { EVENT_STORE, PROJECTION_RUNNER, READ_MODELS } from '../infrastructure/tokens';

interface Watcher {
  sessionId: string;
  /** The position of the last entry sent (or the one the browser said it has). */
  after: number;
}

const PAGE = 500;

/**
 * Live transcripts for the web UI: a browser that watches a session gets a `transcript`
 * frame with the new entries whenever the read models have applied events, in order and
 * without gaps (each frame continues from the last entry sent).
 */
@Injectable()
export class TranscriptFeed implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TranscriptFeed');
  private readonly watchers = new Map<WebSocket, Watcher>();
  private subscription: Subscription | null = null;
  private catchingUp: Promise<void> | null = null;
  /** The newest position seen in the log, and the one the watchers were last caught up to. */
  private latest = -1;
  private sent = -1;
  /** A watcher had more than one page to send. */
  private more = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.store.subscribeToAll({ fromPosition: 'end' });
    void this.follow(this.subscription);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
  }

  /** A browser watches a session from `after` (the last position it has), or from now. */
  watch(client: WebSocket, sessionId: string | null, after?: number): void {
    if (sessionId === null) {
      this.watchers.delete(client);
      return;
    }
    const start = after ?? this.head(sessionId);
    this.watchers.set(client, { sessionId, after: start });
    if (after !== undefined) this.send(client, this.watchers.get(client) as Watcher);
  }

  leave(client: WebSocket): void {
    this.watchers.delete(client);
  }

  /** Notes how far the log has got; one loop at a time catches the watchers up to it. */
  private async follow(subscription: Subscription): Promise<void> {
    try {
      for await (const event of subscription) {
        this.latest = event.position;
        this.catchingUp ??= this.catchUp().finally(() => (this.catchingUp = null));
      }
    } catch (e) {
      this.logger.warn(`live transcripts stopped: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Waits for the read models to reach the newest event seen, sends, and goes round again. */
  private async catchUp(): Promise<void> {
    while (this.sent < this.latest) {
      const target = this.latest;
      await this.runner.waitForPosition(target).catch(() => undefined);
      this.sent = target;
      do {
        this.more = false;
        for (const [client, watcher] of this.watchers) this.send(client, watcher);
      } while (this.more);
    }
  }

  private send(client: WebSocket, watcher: Watcher): void {
    if (client.readyState !== 1) return;
    const page = transcriptQueries(this.readModels).page(watcher.sessionId, {
      after: watcher.after,
      limit: PAGE,
    });
    if (page.entries.length === 0) return;
    watcher.after = lastPosition(page, watcher.after) ?? watcher.after;
    client.send(
      JSON.stringify({ event: 'transcript', data: { sessionId: watcher.sessionId, ...page } }),
    );
    if (page.next !== null) this.more = true;
  }

  private head(sessionId: string): number {
    let after = -1;
    for (;;) {
      const page = transcriptQueries(this.readModels).page(sessionId, { after, limit: PAGE });
      after = lastPosition(page, after) ?? after;
      if (page.next === null) return after;
    }
  }
}
