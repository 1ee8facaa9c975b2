import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { McpServerEntry } from '@sessionboxer/domain';
import type { EventStore, Subscription } from '@sessionboxer/event-store';
import type { McpRegistryPush } from '@sessionboxer/mcp-adapters';
import { DaemonChannel } from '../boxes';
import { EVENT_STORE } from '../infrastructure/tokens';
import { SettingsService } from '../settings';

export function registryPush(registry: readonly McpServerEntry[]): McpRegistryPush {
  return { servers: registry.map((e) => ({ ...e })) };
}

/**
 * Keeps every box's .mcp.json listing Global settings' MCP registry: the registry is pushed to
 * a daemon when it connects and to every connected one when the settings change (the daemon
 * writes the file; the harness reads it at its next turn). The latest registry is kept here, so
 * a connection gets it in the same tick it opens, before any turn.start can be sent on it: the
 * first turn of a new box already has the registry's servers.
 */
@Injectable()
export class McpRegistrySync implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpRegistrySync');
  private subscription: Subscription | null = null;
  private latest: McpRegistryPush | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly channel: DaemonChannel,
    private readonly settings: SettingsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = this.store.subscribeToAll({ fromPosition: 'end' });
    void this.follow(this.subscription);
    const { mcpRegistry } = await this.settings.current();
    // A change followed meanwhile is as new or newer than what was read.
    this.latest ??= registryPush(mcpRegistry);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
  }

  /** Pushes the registry to one daemon (one that just connected), now. */
  push(sessionId: string): void {
    if (this.latest) {
      this.channel.push(sessionId, 'mcp.registry', this.latest);
      return;
    }
    // Only before the bootstrap's read: no box connects that early.
    void this.settings.current().then(({ mcpRegistry }) => {
      this.channel.push(sessionId, 'mcp.registry', registryPush(mcpRegistry));
    });
  }

  private async follow(subscription: Subscription): Promise<void> {
    try {
      for await (const event of subscription) {
        if (event.type !== 'SettingsUpdated') continue;
        const { mcpRegistry } = await this.settings.at(event.position);
        const push = registryPush(mcpRegistry);
        this.latest = push;
        for (const sessionId of this.channel.connected()) {
          this.channel.push(sessionId, 'mcp.registry', push);
        }
      }
    } catch (e) {
      this.logger.error(`stopped following the event store: ${String(e)}`);
    }
  }
}
