import { Inject, Injectable } from '@nestjs/common';
import {
  CREDENTIAL_ENV,
  CREDENTIAL_VALUE_MAX_LENGTH,
  CREDENTIAL_NAMES,
  credentialsDecider,
  credentialsStream,
  DomainError,
  ErrorCode,
  validCredentialName,
  type Actor,
  type CredentialName,
} from '@sessionboxer/domain';
import type { CredentialView } from '@sessionboxer/contracts';
import { CommandBus } from '../../infrastructure/command-bus';
import type { CredentialVault } from './credential-vault';
import { maskSecrets } from './secret-masker';

export const CREDENTIAL_VAULT = Symbol('CredentialVault');

/** Credentials for agents: set and cleared by people, handed to a harness for one run. */
@Injectable()
export class CredentialsService {
  constructor(
    @Inject(CREDENTIAL_VAULT) private readonly vault: CredentialVault,
    private readonly bus: CommandBus,
  ) {}

  list(): CredentialView[] {
    return CREDENTIAL_NAMES.map((name) => this.view(name));
  }

  async set(rawName: string, value: unknown, actor: Actor): Promise<CredentialView> {
    const name = this.name(rawName);
    if (
      typeof value !== 'string' ||
      value.length === 0 ||
      value.length > CREDENTIAL_VALUE_MAX_LENGTH
    ) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        `value must be a string of 1–${CREDENTIAL_VALUE_MAX_LENGTH} characters`,
        { field: 'value' },
      );
    }
    if (/\s/.test(value)) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        'value must not contain spaces or newlines (a pasted key often ends with one)',
        { field: 'value' },
      );
    }
    this.vault.set(name, value);
    await this.record(name, true, actor);
    return this.view(name);
  }

  async clear(rawName: string, actor: Actor): Promise<CredentialView> {
    const name = this.name(rawName);
    this.vault.clear(name);
    await this.record(name, false, actor);
    return this.view(name);
  }

  /**
   * A credential's value, for the provider relays only: they add it to a box's requests
   * outside the box (boxes hold a placeholder). Never put it in an answer, event or log.
   */
  value(name: CredentialName): string | null {
    return this.vault.get(name);
  }

  /** `value` with every credential's value masked. */
  mask<T>(value: T): T {
    return maskSecrets(value, this.vault.values());
  }

  private name(raw: string): CredentialName {
    return validCredentialName(raw);
  }

  private view(name: CredentialName): CredentialView {
    return { name, env: CREDENTIAL_ENV[name], set: this.vault.get(name) !== null };
  }

  private async record(name: CredentialName, set: boolean, actor: Actor): Promise<void> {
    await this.bus.execute(credentialsDecider, credentialsStream(), {
      type: 'RecordCredentialChange',
      data: { name, set },
      metadata: this.bus.metadata(actor),
    });
  }
}
