import { Inject, Injectable } from '@nestjs/common';
import {
  environmentsDecider,
  environmentsStream,
  sandboxSecretsIn,
  SECRET_VALUE_MAX_LENGTH,
  type EnvironmentCommand,
  type EnvironmentEvent,
  type EnvironmentsState,
} from '@sessionboxer/domain/environment';
import { fold, type Actor } from '@sessionboxer/domain/kernel';
import { badArgument } from '@sessionboxer/domain/sandbox';
import type { EventStore } from '@sessionboxer/event-store';
import type { AppConfig } from '../config';
import { CommandBus } from '../infrastructure/command-bus';
import { APP_CONFIG, EVENT_STORE } from '../infrastructure/tokens';
import { SandboxSecretVault } from './secret-vault';

/** An org's environments and secrets: names and products in events, values in the vault. */
@Injectable()
export class Environments {
  private readonly vault: SandboxSecretVault;

  constructor(
    private readonly bus: CommandBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.vault = new SandboxSecretVault(config.dataDir);
  }

  async state(orgId: string): Promise<EnvironmentsState> {
    const events = await this.store.readStream(environmentsStream(orgId));
    return fold(environmentsDecider, events as unknown as EnvironmentEvent[]);
  }

  async execute(
    orgId: string,
    type: EnvironmentCommand['type'],
    args: Record<string, unknown>,
    actor: Actor,
  ): Promise<EnvironmentsState> {
    const { value: _never, ...data } = args;
    const command = { type, data: { ...data, orgId }, metadata: this.bus.metadata(actor) };
    const result = await this.bus.execute(environmentsDecider, environmentsStream(orgId), command);
    return result.state;
  }

  /** set_secret: the value is checked, the name and products recorded, then the value sealed. */
  async setSecret(orgId: string, args: Record<string, unknown>, actor: Actor) {
    const value = args.value;
    if (typeof value !== 'string' || value.length === 0 || value.length > SECRET_VALUE_MAX_LENGTH) {
      throw badArgument(
        'value',
        `value must be a string of 1–${SECRET_VALUE_MAX_LENGTH} characters`,
      );
    }
    if (/[\n\r\0]/.test(value))
      throw badArgument('value', 'value must be one line (no newline or NUL)');
    const state = await this.execute(orgId, 'SetSecret', args, actor);
    const environment = typeof args.environment === 'string' ? args.environment : 'default';
    this.vault.set(orgId, environment, String(args.name), value);
    return state;
  }

  /** The names a sandbox asks for, refused with unknown_environment / unknown_secrets. */
  async check(orgId: string, environment: string, names: readonly string[]): Promise<void> {
    sandboxSecretsIn(await this.state(orgId), environment, names);
  }

  /** The values of a sandbox's secrets, read from its environment now (create, resume). */
  async values(
    orgId: string,
    environment: string,
    names: readonly string[],
  ): Promise<Record<string, string>> {
    await this.check(orgId, environment, names);
    const out: Record<string, string> = {};
    for (const name of names) {
      const value = this.vault.get(orgId, environment, name);
      if (value !== null) out[name] = value;
    }
    return out;
  }
}
