import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { parseStreamName, type EventStore, type Subscription } from '@sessionboxer/event-store';
import { DaemonChannel } from '../boxes';
import { CommandBus } from '../infrastructure/command-bus';
import { EVENT_STORE } from '../infrastructure/tokens';
import { WhoAmIBuilder } from './whoami.builder';

const DEBOUNCE_MS = 25;

/**
 * The events of a session's own streams that can change its session.json (SESSION_FILE_FIELDS:
 * its title, origin, snapshot count, and the agent tools in force, which a new turn takes).
 * Its notifications, outputs, Terminals, PRs and box states never do, so they cost nothing.
 */
const FILE_EVENTS = new Set([
  'SessionCreated',
  'SessionTitleSet',
  'SessionStopped',
  'SessionResumed',
  'SnapshotTaken',
  'SessionReverted',
  'TurnStarted',
  'TurnFinished',
]);

/**
 * Keeps each box's `.sessionboxer/session.json` current: any event on a session's streams
 * (or the settings, which hold the policy) pushes the session's file to its daemon once the
 * read models show it. Pushes coalesce per session.
 */
@Injectable()
export class SessionFileSync implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription: Subscription | null = null;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** What each connected daemon last got, so an event that changes none of it costs no write. */
  private readonly pushed = new Map<string, string>();
  private readonly logger = new Logger('SessionFileSync');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly channel: DaemonChannel,
    private readonly whoami: WhoAmIBuilder,
    private readonly bus: CommandBus,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.store.subscribeToAll({ fromPosition: 'end' });
    void this.follow(this.subscription);
  }

  async onApplicationShutdown(): Promise<void> {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await this.subscription?.close();
  }

  /** Writes the session's file now (a daemon that just connected: always, even if unchanged). */
  async push(sessionId: string, onlyIfChanged = false): Promise<void> {
    const file = await this.whoami.sessionFile(sessionId);
    const json = JSON.stringify(file);
    if (onlyIfChanged && this.pushed.get(sessionId) === json) return;
    if (this.channel.push(sessionId, 'session', file)) this.pushed.set(sessionId, json);
  }

  private async follow(subscription: Subscription): Promise<void> {
    try {
      for await (const event of subscription) {
        const { category, id } = parseStreamName(event.streamName);
        // A session's own conversation and policy streams carry its id.
        if (category === 'policy' || FILE_EVENTS.has(event.type)) this.schedule(id, event.position);
      }
    } catch (e) {
      this.logger.error(`stopped following the event store: ${String(e)}`);
    }
  }

  private schedule(sessionId: string, position: number): void {
    if (!this.channel.isConnected(sessionId) || this.timers.has(sessionId)) return;
    const timer = setTimeout(() => {
      this.timers.delete(sessionId);
      this.bus
        .waitFor(position)
        .then(() => this.push(sessionId, true))
        .catch((e: unknown) => this.logger.warn(`session.json of ${sessionId}: ${String(e)}`));
    }, DEBOUNCE_MS);
    this.timers.set(sessionId, timer);
  }
}
