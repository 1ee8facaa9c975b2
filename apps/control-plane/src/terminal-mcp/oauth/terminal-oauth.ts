import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  InvalidGrantError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Response } from 'express';
import { consentPage } from './consent-page';

/** Open terminals; create, update and delete endpoints. A grant may hold only the first. */
export const SCOPE_TERMINALS = 'terminals';
export const SCOPE_ENDPOINTS_WRITE = 'endpoints:write';
export const TERMINAL_SCOPES = [SCOPE_TERMINALS, SCOPE_ENDPOINTS_WRITE];

const CODE_TTL_MS = 5 * 60 * 1000;
const ACCESS_TTL_S = 60 * 60;

/** A grant: who consented (the person), to which client, with which scopes. */
export interface Grant {
  clientId: string;
  clientName: string;
  person: string;
  scopes: string[];
  resource?: URL;
}

interface PendingCode extends Grant {
  challenge: string;
  redirectUri: string;
  expires: number;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const token = () => randomBytes(32).toString('base64url');

/**
 * The control plane as the terminal MCP's OAuth authorization server (the SDK's router does
 * the HTTP: metadata, registration, authorize, token, revoke; PKCE is checked by it against
 * `challengeForAuthorizationCode`). A person consents on the page `authorize` shows, signed in
 * with the local account. Tokens are kept only as SHA-256 digests. Clients and grants live in
 * memory: a restart asks clients to register and consent again (docs/TERMINALS.md).
 */
export class TerminalOAuth implements OAuthServerProvider {
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, PendingCode>();
  private readonly access = new Map<string, Grant & { expires: number }>();
  private readonly refresh = new Map<string, Grant>();

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: (id) => this.clients.get(id),
    registerClient: (client) => {
      const full = {
        ...client,
        client_id: randomUUID(),
        client_id_issued_at: Math.floor(Date.now() / 1000),
      };
      this.clients.set(full.client_id, full);
      return full;
    },
  };

  authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Response,
  ): Promise<void> {
    res
      .status(200)
      .type('html')
      .send(consentPage(client, params, null));
    return Promise.resolve();
  }

  /** After the person signed in and allowed: a one-time code for the client's redirect. */
  issueCode(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    person: string,
  ): string {
    const scopes = (params.scopes ?? []).filter((s) => TERMINAL_SCOPES.includes(s));
    const code = token();
    this.codes.set(digest(code), {
      clientId: client.client_id,
      clientName: client.client_name ?? client.client_id,
      person,
      scopes: scopes.length > 0 ? scopes : TERMINAL_SCOPES,
      resource: params.resource,
      challenge: params.codeChallenge,
      redirectUri: params.redirectUri,
      expires: Date.now() + CODE_TTL_MS,
    });
    return code;
  }

  challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    return Promise.resolve(this.code(client, code, false).challenge);
  }

  exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
  ): Promise<OAuthTokens> {
    const pending = this.code(client, code, true);
    if (redirectUri !== undefined && redirectUri !== pending.redirectUri) {
      throw new InvalidGrantError('redirect_uri is not the one the code was issued for');
    }
    const { challenge: _c, redirectUri: _r, expires: _e, ...grant } = pending;
    return Promise.resolve(this.tokens(grant));
  }

  exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
  ): Promise<OAuthTokens> {
    const grant = this.refresh.get(digest(refreshToken));
    if (!grant || grant.clientId !== client.client_id)
      throw new InvalidGrantError('unknown refresh token');
    this.refresh.delete(digest(refreshToken));
    return Promise.resolve(this.tokens(grant));
  }

  verifyAccessToken(accessToken: string): Promise<AuthInfo> {
    const grant = this.access.get(digest(accessToken));
    if (!grant || grant.expires <= Date.now())
      throw new InvalidTokenError('invalid or expired access token');
    return Promise.resolve({
      token: accessToken,
      clientId: grant.clientId,
      scopes: grant.scopes,
      expiresAt: Math.floor(grant.expires / 1000),
      resource: grant.resource,
      extra: { person: grant.person, clientName: grant.clientName },
    });
  }

  revokeToken(_client: OAuthClientInformationFull, request: { token: string }): Promise<void> {
    this.access.delete(digest(request.token));
    this.refresh.delete(digest(request.token));
    return Promise.resolve();
  }

  private code(client: OAuthClientInformationFull, code: string, use: boolean): PendingCode {
    const pending = this.codes.get(digest(code));
    if (!pending || pending.clientId !== client.client_id || pending.expires <= Date.now()) {
      throw new InvalidGrantError('invalid or expired authorization code');
    }
    if (use) this.codes.delete(digest(code));
    return pending;
  }

  private tokens(grant: Grant): OAuthTokens {
    const accessToken = token();
    const refreshToken = token();
    this.access.set(digest(accessToken), { ...grant, expires: Date.now() + ACCESS_TTL_S * 1000 });
    this.refresh.set(digest(refreshToken), grant);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TTL_S,
      refresh_token: refreshToken,
      scope: grant.scopes.join(' '),
    };
  }
}
