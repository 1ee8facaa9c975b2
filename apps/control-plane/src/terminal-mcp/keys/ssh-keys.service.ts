import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { SshKeyView } from '@sessionboxer/contracts';
import {
  DomainError,
  ErrorCode,
  sshKeyDecider,
  sshKeyStream,
  type Actor,
} from '@sessionboxer/domain';
import { sshKeyQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { utils, type ParsedKey } from 'ssh2';
import type { AppConfig } from '../../config';
import { CommandBus } from '../../infrastructure/command-bus';
import { IdGenerator } from '../../infrastructure/clock';
import { APP_CONFIG, READ_MODELS } from '../../infrastructure/tokens';
import { SshKeyVault } from './ssh-key-vault';

/** OpenSSH's fingerprint of a public key blob: `SHA256:` and unpadded base64. */
export function fingerprintOf(publicSsh: Buffer): string {
  return `SHA256:${createHash('sha256').update(publicSsh).digest('base64').replace(/=+$/, '')}`;
}

const PRIVATE_KEY_MAX_LENGTH = 16 * 1024;

/** File keys (private half sealed in the vault) and their metadata, the only thing shown. */
@Injectable()
export class SshKeys {
  private readonly vault: SshKeyVault;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly bus: CommandBus,
    private readonly ids: IdGenerator,
  ) {
    this.vault = new SshKeyVault(config.dataDir);
  }

  list(): SshKeyView[] {
    return sshKeyQueries(this.readModels).list();
  }

  get(keyId: string): SshKeyView | null {
    return sshKeyQueries(this.readModels).get(keyId);
  }

  /** Adds a file key from its OpenSSH or PEM text (unencrypted); answers its metadata. */
  async addFileKey(name: unknown, privateKey: unknown, actor: Actor): Promise<SshKeyView> {
    const parsed = this.parse(privateKey);
    const keyId = this.ids.next();
    this.vault.put(keyId, privateKey as string);
    const data = {
      keyId,
      kind: 'file' as const,
      name: typeof name === 'string' ? name : '',
      type: parsed.type,
      fingerprint: fingerprintOf(parsed.getPublicSSH()),
      comment: parsed.comment,
    };
    try {
      await this.bus.execute(sshKeyDecider, sshKeyStream(keyId), {
        type: 'AddSshKey',
        data,
        metadata: this.bus.metadata(actor),
      });
    } catch (e) {
      this.vault.remove(keyId);
      throw e;
    }
    return this.get(keyId) as SshKeyView;
  }

  async remove(keyId: string, actor: Actor): Promise<void> {
    await this.bus.execute(sshKeyDecider, sshKeyStream(keyId), {
      type: 'RemoveSshKey',
      data: { keyId },
      metadata: this.bus.metadata(actor),
    });
    this.vault.remove(keyId);
  }

  /** The private key for a handshake; never in an answer, event or log. */
  privateKey(keyId: string): string | null {
    return this.vault.get(keyId);
  }

  private parse(privateKey: unknown): ParsedKey {
    if (typeof privateKey !== 'string' || privateKey.length > PRIVATE_KEY_MAX_LENGTH) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        `privateKey must be the text of a private key (at most ${PRIVATE_KEY_MAX_LENGTH} characters)`,
        { field: 'privateKey' },
      );
    }
    const parsed = utils.parseKey(privateKey);
    const key = Array.isArray(parsed) ? (parsed[0] as ParsedKey | undefined) : parsed;
    if (key === undefined || key instanceof Error || !key.isPrivateKey()) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        'privateKey must be an unencrypted OpenSSH or PEM private key (ssh-keygen -t ed25519 -N "")',
        { field: 'privateKey' },
      );
    }
    return key;
  }
}
