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
 * writes the file; the harness reads it at its next turn).
 */
@Injectable()
export class McpRegistrySync implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpRegistrySync');
  private subscription: Subscription | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly channel: DaemonChannel,
    private readonly settings: SettingsService,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.store.subscribeToAll({ fromPosition: 'end' });
    void this.follow(this.subscription);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
  }

  /** Pushes the registry to one daemon (one that just connected). */
  async push(sessionId: string): Promise<void> {
    const { mcpRegistry } = await this.settings.current();
    this.channel.push(sessionId, 'mcp.registry', registryPush(mcpRegistry));
  }

  private async follow(subscription: Subscription): Promise<void> {
    try {
      for await (const event of subscription) {
        if (event.type !== 'SettingsUpdated') continue;
        const { mcpRegistry } = await this.settings.at(event.position);
        const push = registryPush(mcpRegistry);
        for (const sessionId of this.channel.connected()) {
          this.channel.push(sessionId, 'mcp.registry', push);
        }
      }
    } catch (e) {
      this.logger.error(`stopped following the event store: ${String(e)}`);
    }
  }
}
