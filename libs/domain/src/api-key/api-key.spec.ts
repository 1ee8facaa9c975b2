import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import { apiKeyDecider, type ApiKeyCommand, type ApiKeyEvent } from './api-key';

const spec = DeciderSpecification.for(apiKeyDecider);
const HASH = 'a'.repeat(64);
const create = (scopes: unknown): ApiKeyCommand => ({
  type: 'CreateApiKey',
  data: { keyId: 'k', orgId: 'o', name: 'ci', scopes, hash: HASH, prefix: 'sbk_k' },
  metadata: meta(),
});
const revoke: ApiKeyCommand = { type: 'RevokeApiKey', data: { keyId: 'k' }, metadata: meta() };
const created: ApiKeyEvent = {
  type: 'ApiKeyCreated',
  data: {
    keyId: 'k',
    orgId: 'o',
    name: 'ci',
    scopes: ['sandboxes:read'],
    hash: HASH,
    prefix: 'sbk_k',
    at: AT,
  },
};

describe('api key decider', () => {
  describe('none yet', () => {
    it('records only the hash and the scopes; refuses unknown or no scopes', () => {
      spec
        .given([])
        .when(create(['sandboxes:read']))
        .then([created]);
      spec
        .given([])
        .when(create([]))
        .thenThrows(ErrorCode.ValidationFailed, /scopes must be/);
      spec
        .given([])
        .when(create(['admin']))
        .thenThrows(ErrorCode.ValidationFailed, /scopes/);
      spec.given([]).when(revoke).thenThrows(ErrorCode.NotFound);
    });
  });
  describe('made', () => {
    it('is revoked once; again is nothing', () => {
      spec
        .given([created])
        .when(revoke)
        .then([{ type: 'ApiKeyRevoked', data: { keyId: 'k', orgId: 'o', at: AT } }]);
      spec
        .given([created, { type: 'ApiKeyRevoked', data: { keyId: 'k', orgId: 'o', at: AT } }])
        .when(revoke)
        .thenNothing();
    });
  });
});
