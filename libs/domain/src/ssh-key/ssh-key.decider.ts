import {
  assertNever,
  DomainError,
  ErrorCode,
  type Actor,
  type Command,
  type Decider,
  type DomainEvent,
} from '../kernel';
import { exactId, invalid, oneOf, text } from '../kernel/validation';

/**
 * An SSH key terminals can sign in with. The log holds its metadata only: a file key's private
 * half is encrypted in the control plane's key vault, a passkey's never leaves its
 * authenticator. What any answer shows is exactly `SshKeyMetadata`.
 */
export type SshKeyKind = 'file' | 'passkey';
export const SSH_KEY_KINDS: readonly SshKeyKind[] = ['file', 'passkey'];

/** OpenSSH's public key types (`ssh-keygen -t`, and the FIDO one a passkey signs with). */
export const SSH_KEY_TYPES = [
  'ssh-ed25519',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ecdsa-sha2-nistp256@openssh.com',
  'sk-ssh-ed25519@openssh.com',
  'webauthn-sk-ecdsa-sha2-nistp256@openssh.com',
] as const;
export type SshKeyType = (typeof SSH_KEY_TYPES)[number];

export interface SshKeyMetadata {
  keyId: string;
  kind: SshKeyKind;
  name: string;
  type: SshKeyType;
  /** `SHA256:…` of the public key, as `ssh-keygen -lf` prints it. */
  fingerprint: string;
  comment: string;
  createdAt: string;
}

export type AddSshKey = Command<
  'AddSshKey',
  {
    keyId: string;
    kind: SshKeyKind;
    name: string;
    type: string;
    fingerprint: string;
    comment: string;
  }
>;
export type RemoveSshKey = Command<'RemoveSshKey', { keyId: string }>;
export type SshKeyCommand = AddSshKey | RemoveSshKey;

export type SshKeyAdded = DomainEvent<
  'SshKeyAdded',
  Omit<SshKeyMetadata, 'createdAt'> & { by: Actor; at: string }
>;
export type SshKeyRemoved = DomainEvent<'SshKeyRemoved', { keyId: string; by: Actor; at: string }>;
export type SshKeyEvent = SshKeyAdded | SshKeyRemoved;

export const SSH_KEY_EVENT_TYPES: readonly SshKeyEvent['type'][] = ['SshKeyAdded', 'SshKeyRemoved'];

export type SshKeyState =
  { status: 'absent' | 'removed' } | { status: 'active'; key: SshKeyMetadata };

export function sshKeyStream(keyId: string): string {
  return `sshkey-${exactId(keyId, 'keyId')}`;
}

const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

function decide(command: SshKeyCommand, state: SshKeyState): SshKeyEvent[] {
  const { metadata } = command;
  switch (command.type) {
    case 'AddSshKey': {
      const d = command.data;
      const keyId = exactId(d.keyId, 'keyId');
      if (state.status !== 'absent') {
        throw new DomainError(ErrorCode.AlreadyExists, `key ${keyId} already exists`);
      }
      if (typeof d.fingerprint !== 'string' || !FINGERPRINT.test(d.fingerprint)) {
        throw invalid('fingerprint', 'fingerprint must be an OpenSSH SHA256:… fingerprint');
      }
      const comment = typeof d.comment === 'string' ? d.comment.slice(0, 200) : '';
      const data = {
        keyId,
        kind: oneOf(d.kind, 'kind', SSH_KEY_KINDS),
        name: text(d.name, 'name', 100),
        type: oneOf(d.type, 'type', SSH_KEY_TYPES),
        fingerprint: d.fingerprint,
        comment,
        by: metadata.actor,
        at: metadata.at,
      };
      return [{ type: 'SshKeyAdded', data }];
    }
    case 'RemoveSshKey': {
      if (state.status !== 'active') {
        throw new DomainError(ErrorCode.NotFound, `key ${command.data.keyId} does not exist`);
      }
      return [
        {
          type: 'SshKeyRemoved',
          data: { keyId: state.key.keyId, by: metadata.actor, at: metadata.at },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: SshKeyState, event: SshKeyEvent): SshKeyState {
  switch (event.type) {
    case 'SshKeyAdded': {
      const { by: _by, at, ...key } = event.data;
      return { status: 'active', key: { ...key, createdAt: at } };
    }
    case 'SshKeyRemoved':
      return { status: 'removed' };
    default:
      return assertNever(event);
  }
}

export const sshKeyDecider: Decider<SshKeyCommand, SshKeyEvent, SshKeyState> = {
  decide,
  evolve,
  initialState: { status: 'absent' },
};
