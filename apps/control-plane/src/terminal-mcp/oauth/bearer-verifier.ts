import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { ApiKeys } from '../../api-keys';
import { SCOPE_ENDPOINTS_WRITE, SCOPE_TERMINALS, type TerminalOAuth } from './terminal-oauth';

const API_KEY = /^sbk_/;
/** A key is checked again at least this often on a connection (ApiKeys reads its stream). */
const API_KEY_CHECK_S = 60;

/**
 * Who a bearer token is: an OAuth access token of a person's consent, or an org API key
 * (issue 16's, `sbk_…`, checked by ApiKeys on every request, so a revoked key stops at once).
 * Until API keys have terminal scopes of their own, every valid key may open terminals and
 * only a key with `sandboxes:write` may write endpoints: a read-only key lists them.
 */
export function bearerVerifier(oauth: TerminalOAuth, keys: ApiKeys): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      if (!API_KEY.test(token)) return oauth.verifyAccessToken(token);
      const key = await keys.authenticate(token);
      if (key === null) throw new InvalidTokenError('unknown or revoked API key');
      const write = key.scopes.includes('sandboxes:write');
      return {
        token,
        clientId: `api-key:${key.keyId}`,
        scopes: write ? [SCOPE_TERMINALS, SCOPE_ENDPOINTS_WRITE] : [SCOPE_TERMINALS],
        expiresAt: Math.floor(Date.now() / 1000) + API_KEY_CHECK_S,
        extra: { person: `org ${key.orgId}`, clientName: `API key ${key.keyId}` },
      };
    },
  };
}
