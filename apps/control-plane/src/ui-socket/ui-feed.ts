import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { EventStore, Subscription } from '@sessionboxer/event-store';
import type { ProjectionRunner } from '@sessionboxer/projections';
import { EVENT_STORE, PROJECTION_RUNNER } from '../infrastructure/tokens';
import { InboxFeed } from './inbox-feed';
import { SessionFeed } from './session-feed';
import { SidebarFeed } from './sidebar-feed';
import { TranscriptFeed } from './transcript-feed';

/**
 * What drives the web UI's live frames: it follows the log, waits for the read models to
 * apply the newest event seen, then lets each feed (transcripts, sidebar, session views) send
 * what changed. One catch-up runs at a time; events that arrive meanwhile are covered by the
 * next round, so a burst of events costs one read of each view, not one per event.
 */
@Injectable()
export class UiFeed implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('UiFeed');
  private subscription: Subscription | null = null;
  private catchingUp: Promise<void> | null = null;
  private closing = false;
  /** The newest position seen in the log, and the one the feeds were last caught up to. */
  private latest = -1;
  private sent = -1;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner,
    private readonly transcripts: TranscriptFeed,
    private readonly sidebar: SidebarFeed,
    private readonly sessions: SessionFeed,
    private readonly inbox: InboxFeed,
  ) {}

  onApplicationBootstrap(): void {
    void this.follow('end');
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.subscription?.close();
  }

  /**
   * Notes how far the log has got; one loop at a time catches the feeds up to it. A dropped
   * subscription (an EventStoreDB restart) is taken up again after the last event seen.
   */
  private async follow(from: number | 'end'): Promise<void> {
    for (let retry = 0; !this.closing; retry++) {
      const subscription = this.store.subscribeToAll({ fromPosition: from });
      this.subscription = subscription;
      try {
        for await (const event of subscription) {
          this.latest = event.position;
          from = event.position;
          retry = 0;
          this.kick();
        }
        return;
      } catch (e) {
        if (this.closing) return;
        const wait = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** retry);
        this.logger.warn(`the web UI's live feed dropped (${message(e)}); again in ${wait} ms`);
        await new Promise((r) => setTimeout(r, wait).unref());
      }
    }
  }

  /** Starts a catch-up unless one runs; one that ends behind the log starts the next. */
  private kick(): void {
    if (this.catchingUp) return;
    this.catchingUp = this.catchUp().finally(() => {
      this.catchingUp = null;
      if (this.sent < this.latest) this.kick();
    });
  }

  /** Waits for the read models to reach the newest event seen, sends, and goes round again. */
  private async catchUp(): Promise<void> {
    while (this.sent < this.latest) {
      const target = this.latest;
      await this.runner.waitForPosition(target).catch(() => undefined);
      this.sent = target;
      // Each feed on its own: one that fails (logged) does not hold up the others.
      for (const feed of [this.transcripts, this.sidebar, this.sessions, this.inbox]) {
        try {
          await feed.caughtUp();
        } catch (e) {
          this.logger.warn(`the web UI's live feed could not send: ${message(e)}`);
        }
      }
    }
  }
}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
