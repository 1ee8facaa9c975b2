import { assertNever, ErrorCode, type Command, type Decider, type DomainEvent } from '../kernel';
import { text } from '../kernel/validation';
import { badArgument, refusal } from '../sandbox/sandbox.refusals';

/**
 * An org's API key. The key itself is shown once when it is made; only its sha256 (hex) is
 * ever recorded, with a short prefix people recognise it by. Revoking is for good.
 */
export function apiKeyStream(keyId: string): string {
  return `apikey-${keyId}`;
}

export type ApiKeyScope = 'sandboxes:read' | 'sandboxes:write';
export const API_KEY_SCOPES: readonly ApiKeyScope[] = ['sandboxes:read', 'sandboxes:write'];
export const API_KEY_NAME_MAX_LENGTH = 100;

export type CreateApiKey = Command<
  'CreateApiKey',
  { keyId: string; orgId: string; name: unknown; scopes: unknown; hash: string; prefix: string }
>;
export type RevokeApiKey = Command<'RevokeApiKey', { keyId: string }>;
export type ApiKeyCommand = CreateApiKey | RevokeApiKey;

export interface ApiKeyRecord {
  keyId: string;
  orgId: string;
  name: string;
  scopes: ApiKeyScope[];
  hash: string;
  prefix: string;
}
export type ApiKeyCreated = DomainEvent<'ApiKeyCreated', ApiKeyRecord & { at: string }>;
export type ApiKeyRevoked = DomainEvent<
  'ApiKeyRevoked',
  { keyId: string; orgId: string; at: string }
>;
export type ApiKeyEvent = ApiKeyCreated | ApiKeyRevoked;
export const API_KEY_EVENT_TYPES: readonly ApiKeyEvent['type'][] = [
  'ApiKeyCreated',
  'ApiKeyRevoked',
];

export interface ApiKeyState {
  key: ApiKeyRecord | null;
  revoked: boolean;
}

export function validScopes(value: unknown): ApiKeyScope[] {
  const list = Array.isArray(value) ? value : [];
  const scopes = API_KEY_SCOPES.filter((s) => list.includes(s));
  if (list.length === 0 || scopes.length !== new Set(list).size) {
    throw badArgument('scopes', `scopes must be a non-empty list of ${API_KEY_SCOPES.join(', ')}`);
  }
  return scopes;
}

function decide(command: ApiKeyCommand, state: ApiKeyState): ApiKeyEvent[] {
  const at = command.metadata.at;
  switch (command.type) {
    case 'CreateApiKey': {
      if (state.key !== null)
        throw refusal('invalid_argument', ErrorCode.AlreadyExists, 'the key exists');
      const { keyId, orgId, hash, prefix } = command.data;
      if (!/^[0-9a-f]{64}$/.test(hash)) throw badArgument('hash', 'hash must be a sha256 in hex');
      const name = text(command.data.name, 'name', API_KEY_NAME_MAX_LENGTH);
      const scopes = validScopes(command.data.scopes);
      return [{ type: 'ApiKeyCreated', data: { keyId, orgId, name, scopes, hash, prefix, at } }];
    }
    case 'RevokeApiKey': {
      if (state.key === null) {
        throw refusal('not_found', ErrorCode.NotFound, `there is no API key ${command.data.keyId}`);
      }
      if (state.revoked) return [];
      return [
        { type: 'ApiKeyRevoked', data: { keyId: state.key.keyId, orgId: state.key.orgId, at } },
      ];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: ApiKeyState, event: ApiKeyEvent): ApiKeyState {
  switch (event.type) {
    case 'ApiKeyCreated': {
      const { at: _at, ...key } = event.data;
      return { key, revoked: false };
    }
    case 'ApiKeyRevoked':
      return { ...state, revoked: true };
    default:
      return assertNever(event);
  }
}

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  decide,
  evolve,
  initialState: { key: null, revoked: false },
};

/** What a request may do with a scope set: read tools need read, everything else write. */
export function allows(scopes: readonly ApiKeyScope[], needs: ApiKeyScope): boolean {
  return scopes.includes(needs);
}
