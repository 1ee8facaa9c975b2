import {
  assertNever,
  DomainError,
  ErrorCode,
  type Actor,
  type Command,
  type Decider,
  type DomainEvent,
} from '../kernel';
import { exactId } from '../kernel/validation';
import {
  validEndpointChanges,
  validEndpointFields,
  validFingerprint,
  type SshEndpointFields,
} from './ssh-endpoint.validation';

/**
 * An SSH endpoint a terminal can be opened against: where (host, port, user), with which key,
 * and the host key's fingerprint, pinned when it is given or at the first approved handshake.
 * A changed host or port unpins it (another machine answers there), unless the same change
 * gives the new fingerprint.
 */
export type CreateSshEndpoint = Command<
  'CreateSshEndpoint',
  { endpointId: string; endpoint: unknown }
>;
export type UpdateSshEndpoint = Command<
  'UpdateSshEndpoint',
  { endpointId: string; endpoint: unknown }
>;
export type DeleteSshEndpoint = Command<'DeleteSshEndpoint', { endpointId: string }>;
/** The fingerprint the first approved handshake saw; refused when another one is pinned. */
export type PinSshHostKey = Command<'PinSshHostKey', { endpointId: string; fingerprint: string }>;

export type SshEndpointCommand =
  CreateSshEndpoint | UpdateSshEndpoint | DeleteSshEndpoint | PinSshHostKey;

export type SshEndpointCreated = DomainEvent<
  'SshEndpointCreated',
  SshEndpointFields & { endpointId: string; by: Actor; at: string }
>;
export type SshEndpointUpdated = DomainEvent<
  'SshEndpointUpdated',
  Partial<SshEndpointFields> & { endpointId: string; by: Actor; at: string }
>;
export type SshEndpointDeleted = DomainEvent<
  'SshEndpointDeleted',
  { endpointId: string; by: Actor; at: string }
>;
export type SshHostKeyPinned = DomainEvent<
  'SshHostKeyPinned',
  { endpointId: string; fingerprint: string; at: string }
>;

export type SshEndpointEvent =
  SshEndpointCreated | SshEndpointUpdated | SshEndpointDeleted | SshHostKeyPinned;

export const SSH_ENDPOINT_EVENT_TYPES: readonly SshEndpointEvent['type'][] = [
  'SshEndpointCreated',
  'SshEndpointUpdated',
  'SshEndpointDeleted',
  'SshHostKeyPinned',
];

export type SshEndpointState =
  { status: 'absent' | 'deleted' } | ({ status: 'active'; endpointId: string } & SshEndpointFields);

export function sshEndpointStream(endpointId: string): string {
  return `sshendpoint-${exactId(endpointId, 'endpointId')}`;
}

function active(state: SshEndpointState, id: string) {
  if (state.status !== 'active') {
    throw new DomainError(ErrorCode.NotFound, `endpoint ${id} does not exist`);
  }
  return state;
}

function update(command: UpdateSshEndpoint, state: SshEndpointState): SshEndpointEvent[] {
  const e = active(state, command.data.endpointId);
  const changes = validEndpointChanges(command.data.endpoint);
  const moved =
    (changes.host !== undefined && changes.host !== e.host) ||
    (changes.port !== undefined && changes.port !== e.port);
  if (moved && changes.hostKeyFingerprint === undefined) changes.hostKeyFingerprint = null;
  const { metadata } = command;
  return [
    {
      type: 'SshEndpointUpdated',
      data: { ...changes, endpointId: e.endpointId, by: metadata.actor, at: metadata.at },
    },
  ];
}

function decide(command: SshEndpointCommand, state: SshEndpointState): SshEndpointEvent[] {
  const { metadata } = command;
  switch (command.type) {
    case 'CreateSshEndpoint': {
      const endpointId = exactId(command.data.endpointId, 'endpointId');
      if (state.status !== 'absent') {
        throw new DomainError(ErrorCode.AlreadyExists, `endpoint ${endpointId} already exists`);
      }
      const fields = validEndpointFields(command.data.endpoint);
      return [
        {
          type: 'SshEndpointCreated',
          data: { endpointId, ...fields, by: metadata.actor, at: metadata.at },
        },
      ];
    }
    case 'UpdateSshEndpoint':
      return update(command, state);
    case 'DeleteSshEndpoint': {
      const e = active(state, command.data.endpointId);
      return [
        {
          type: 'SshEndpointDeleted',
          data: { endpointId: e.endpointId, by: metadata.actor, at: metadata.at },
        },
      ];
    }
    case 'PinSshHostKey': {
      const e = active(state, command.data.endpointId);
      const fingerprint = validFingerprint(command.data.fingerprint, 'fingerprint');
      if (e.hostKeyFingerprint === fingerprint) return [];
      if (e.hostKeyFingerprint !== null) {
        throw new DomainError(
          ErrorCode.Conflict,
          `endpoint ${e.endpointId} has host key ${e.hostKeyFingerprint} pinned, not ${fingerprint}`,
        );
      }
      return [
        {
          type: 'SshHostKeyPinned',
          data: { endpointId: e.endpointId, fingerprint, at: metadata.at },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: SshEndpointState, event: SshEndpointEvent): SshEndpointState {
  switch (event.type) {
    case 'SshEndpointCreated': {
      const { endpointId, name, host, port, user, keyId, hostKeyFingerprint } = event.data;
      return { status: 'active', endpointId, name, host, port, user, keyId, hostKeyFingerprint };
    }
    case 'SshEndpointUpdated': {
      if (state.status !== 'active') return state;
      const { endpointId: _id, by: _by, at: _at, ...changes } = event.data;
      return { ...state, ...changes };
    }
    case 'SshEndpointDeleted':
      return { status: 'deleted' };
    case 'SshHostKeyPinned':
      return state.status === 'active'
        ? { ...state, hostKeyFingerprint: event.data.fingerprint }
        : state;
    default:
      return assertNever(event);
  }
}

export const sshEndpointDecider: Decider<SshEndpointCommand, SshEndpointEvent, SshEndpointState> = {
  decide,
  evolve,
  initialState: { status: 'absent' },
};
