import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  defaultSettings,
  publicSettings,
  settingsDecider,
  settingsStream,
  type Actor,
  type Settings,
} from '@sessionboxer/domain';
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';
import { CommandBus } from '../infrastructure/command-bus';
import { EVENT_STORE } from '../infrastructure/tokens';
import type { SettingsView } from '@sessionboxer/contracts';

/** Global settings: the last SettingsUpdated of `settings-global` holds all of them. */
@Injectable()
export class SettingsService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly bus: CommandBus,
  ) {}

  /** The full settings, secrets included: for the control plane's own use only. */
  async current(): Promise<Settings> {
    const [last] = await this.store.readStream(settingsStream(), {
      direction: 'backwards',
      maxCount: 1,
    });
    return settingsOf(last);
  }

  /** The settings as they were once the event at global `position` was recorded. */
  async at(position: number): Promise<Settings> {
    return settingsOf(await lastUpTo(this.store, settingsStream(), position));
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
    await this.bus.execute(settingsDecider, settingsStream(), {
      type: 'UpdateSettings',
      data: { patch: patch },
      metadata: this.bus.metadata(actor, key),
    });
    return this.view();
  }

  /** Adds or replaces one stdio server of the MCP registry (env values `null`: keep). */
  async putMcpServer(entry: unknown, actor: Actor, key?: string): Promise<SettingsView> {
    await this.bus.execute(settingsDecider, settingsStream(), {
      type: 'PutMcpServer',
      data: { entry },
      metadata: this.bus.metadata(actor, key),
    });
    return this.view();
  }

  async removeMcpServer(name: string, actor: Actor, key?: string): Promise<SettingsView> {
    await this.bus.execute(settingsDecider, settingsStream(), {
      type: 'RemoveMcpServer',
      data: { name },
      metadata: this.bus.metadata(actor, key),
    });
    return this.view();
  }

  /** Gives sessions' agents a relayed server (the MCP registry's `relay` entry), or not. */
  async giveRelayedServer(
    relay: string,
    given: unknown,
    actor: Actor,
    key?: string,
  ): Promise<SettingsView> {
    await this.bus.execute(settingsDecider, settingsStream(), {
      type: 'GiveRelayedMcpServer',
      data: { relay, given },
      metadata: this.bus.metadata(actor, key),
    });
    return this.view();
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
