import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  defaultSettings,
  publicSettings,
  settingsDecider,
  settingsStream,
  type Actor,
  type Settings,
  type SettingsCommand,
} from '@sessionboxer/domain';
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';
import { CommandBus } from '../infrastructure/command-bus';
import { EVENT_STORE } from '../infrastructure/tokens';
import type { SettingsView } from '@sessionboxer/contracts';
import {
  openSettings,
  sealedIds,
  sealEntry,
  sealPatch,
  unsealedPatch,
  type SecretStore,
} from './secrets/sealed-secrets';

export const SETTINGS_SECRETS = Symbol('SettingsSecretStore');

/**
 * Global settings: the last SettingsUpdated of `settings-global` holds all of them, with their
 * secrets sealed (secrets/sealed-secrets.ts): the values live in the secret store.
 */
@Injectable()
export class SettingsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Settings');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly bus: CommandBus,
    @Inject(SETTINGS_SECRETS) private readonly secrets: SecretStore,
  ) {}

  /** Seals the secrets an earlier version recorded in the clear (once; a no-op after). */
  async onApplicationBootstrap(): Promise<void> {
    const patch = unsealedPatch(await this.recorded(), this.secrets);
    if (!patch) return;
    await this.bus.execute(settingsDecider, settingsStream(), {
      type: 'UpdateSettings',
      data: { patch },
      metadata: this.bus.metadata({ kind: 'system', id: 'settings' }, 'seal-secrets/v1'),
    });
    this.logger.warn(
      'moved the GitHub token, webhook secret and MCP env values out of the event log; ' +
        'events recorded before still hold them: rotate them',
    );
  }

  /** The full settings, secrets included: for the control plane's own use only. */
  async current(): Promise<Settings> {
    return openSettings(await this.recorded(), this.secrets);
  }

  /** The settings as they were once the event at global `position` was recorded. */
  async at(position: number): Promise<Settings> {
    const last = await lastUpTo(this.store, settingsStream(), position);
    return openSettings(settingsOf(last), this.secrets);
  }

  /** The settings as the log holds them (secrets sealed). */
  private async recorded(): Promise<Settings> {
    const [last] = await this.store.readStream(settingsStream(), {
      direction: 'backwards',
      maxCount: 1,
    });
    return settingsOf(last);
  }

  /**
   * Checks a change as given (secret values and all, so a wrong one is refused naming its
   * field and nothing is stored), records it with its secrets sealed, then forgets the values
   * the settings no longer refer to.
   */
  private async record(
    given: SettingsCommand,
    sealed: () => SettingsCommand,
  ): Promise<SettingsView> {
    settingsDecider.decide(given, { settings: await this.recorded() });
    await this.bus.execute(settingsDecider, settingsStream(), sealed());
    this.secrets.retain(sealedIds(await this.recorded()));
    return this.view();
  }

  async view(): Promise<SettingsView> {
    const s = await this.current();
    return {
      settings: publicSettings(s),
      secretsSet: {
        githubToken: s.github.token !== null,
        githubWebhookSecret: s.github.webhookSecret !== null,
      },
    };
  }

  async update(patch: unknown, actor: Actor, key?: string): Promise<SettingsView> {
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        'the body must be a JSON object of the settings to change',
      );
    }
    const metadata = this.bus.metadata(actor, key);
    return this.record({ type: 'UpdateSettings', data: { patch }, metadata }, () => ({
      type: 'UpdateSettings',
      data: { patch: sealPatch(patch, this.secrets) },
      metadata,
    }));
  }

  /** Adds or replaces one stdio server of the MCP registry (env values `null`: keep). */
  async putMcpServer(entry: unknown, actor: Actor, key?: string): Promise<SettingsView> {
    const metadata = this.bus.metadata(actor, key);
    return this.record({ type: 'PutMcpServer', data: { entry }, metadata }, () => ({
      type: 'PutMcpServer',
      data: { entry: sealEntry(entry, this.secrets) },
      metadata,
    }));
  }

  async removeMcpServer(name: string, actor: Actor, key?: string): Promise<SettingsView> {
    const command = {
      type: 'RemoveMcpServer' as const,
      data: { name },
      metadata: this.bus.metadata(actor, key),
    };
    return this.record(command, () => command);
  }

  /** Gives sessions' agents a relayed server (the MCP registry's `relay` entry), or not. */
  async giveRelayedServer(
    relay: string,
    given: unknown,
    actor: Actor,
    key?: string,
  ): Promise<SettingsView> {
    const metadata = this.bus.metadata(actor, key);
    const command = { type: 'GiveRelayedMcpServer' as const, data: { relay, given }, metadata };
    return this.record(command, () => command);
  }
}

/** Settings recorded before a section existed lack it: they meant its default. */
function settingsOf(last: RecordedEvent | undefined): Settings {
  return last
    ? { ...defaultSettings, ...(last.data as { settings: Settings }).settings }
    : defaultSettings;
}

/**
 * The last event of `stream` at or before global `position`: for streams whose every event
 * holds the whole value (settings, a session's policy), the value as it was then.
 */
export async function lastUpTo(
  store: EventStore,
  stream: string,
  position: number,
): Promise<RecordedEvent | undefined> {
  const page = 64;
  for (let from: number | undefined = undefined; ;) {
    const events = await store.readStream(stream, {
      direction: 'backwards',
      maxCount: page,
      ...(from === undefined ? {} : { fromRevision: from }),
    });
    const found = events.find((e) => e.position <= position);
    if (found) return found;
    const oldest = events[events.length - 1];
    if (events.length < page || oldest === undefined || oldest.revision === 0) return undefined;
    from = oldest.revision - 1;
  }
}
