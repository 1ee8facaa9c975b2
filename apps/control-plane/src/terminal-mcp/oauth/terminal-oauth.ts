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
import type { SharedState } from '../../infrastructure/shared-state';
import { consentPage } from './consent-page';

/** Open terminals; create, update and delete endpoints. A grant may hold only the first. */
export const SCOPE_TERMINALS = 'terminals';
export const SCOPE_ENDPOINTS_WRITE = 'endpoints:write';
export const TERMINAL_SCOPES = [SCOPE_TERMINALS, SCOPE_ENDPOINTS_WRITE];

const CODE_TTL_MS = 5 * 60 * 1000;
const ACCESS_TTL_S = 60 * 60;
const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A registered client nobody used for this long is forgotten (it registers again). */
const CLIENT_TTL_MS = 180 * 24 * 60 * 60 * 1000;

/** A grant: who consented (the person), to which client, with which scopes. */
export interface Grant {
  clientId: string;
  clientName: string;
  person: string;
  scopes: string[];
  resource?: string;
}

interface PendingCode extends Grant {
  challenge: string;
  redirectUri: string;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const token = () => randomBytes(32).toString('base64url');

/** The shared-state keys, each under the installation's own prefix. */
const key = {
  client: (id: string) => `oauth:client:${id}`,
  code: (code: string) => `oauth:code:${digest(code)}`,
  access: (t: string) => `oauth:access:${digest(t)}`,
  refresh: (t: string) => `oauth:refresh:${digest(t)}`,
};

function parsed<T>(raw: string | null): T | null {
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/**
 * The control plane as the terminal MCP's OAuth authorization server (the SDK's router does
 * the HTTP: metadata, registration, authorize, token, revoke; PKCE is checked by it against
 * `challengeForAuthorizationCode`). A person consents on the page `authorize` shows, signed in
 * with the local account. Clients, codes and tokens live in the shared state, so every
 * instance knows them and a restart keeps them; tokens and codes only as SHA-256 digests.
 * A code or a refresh token is taken once: of two concurrent exchanges only one wins.
 */
export class TerminalOAuth implements OAuthServerProvider {
  constructor(private readonly state: SharedState) {}

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: async (id) =>
      parsed<OAuthClientInformationFull>(await this.state.get(key.client(id))) ?? undefined,
    registerClient: async (client) => {
      const full = {
        ...client,
        client_id: randomUUID(),
        client_id_issued_at: Math.floor(Date.now() / 1000),
      };
      await this.state.set(key.client(full.client_id), JSON.stringify(full), CLIENT_TTL_MS);
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
  async issueCode(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    person: string,
  ): Promise<string> {
    const scopes = (params.scopes ?? []).filter((s) => TERMINAL_SCOPES.includes(s));
    const code = token();
    const pending: PendingCode = {
      clientId: client.client_id,
      clientName: client.client_name ?? client.client_id,
      person,
      scopes: scopes.length > 0 ? scopes : TERMINAL_SCOPES,
      resource: params.resource?.href,
      challenge: params.codeChallenge,
      redirectUri: params.redirectUri,
    };
    await this.state.set(key.code(code), JSON.stringify(pending), CODE_TTL_MS);
    return code;
  }

  async challengeForAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
  ): Promise<string> {
    return (await this.code(client, code, false)).challenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
  ): Promise<OAuthTokens> {
    const pending = await this.code(client, code, true);
    if (redirectUri !== undefined && redirectUri !== pending.redirectUri) {
      throw new InvalidGrantError('redirect_uri is not the one the code was issued for');
    }
    const { challenge: _c, redirectUri: _r, ...grant } = pending;
    return this.tokens(grant);
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
  ): Promise<OAuthTokens> {
    const grant = await this.take<Grant>(key.refresh(refreshToken));
    if (!grant || grant.clientId !== client.client_id)
      throw new InvalidGrantError('unknown refresh token');
    return this.tokens(grant);
  }

  async verifyAccessToken(accessToken: string): Promise<AuthInfo> {
    const grant = parsed<Grant & { expires: number }>(
      await this.state.get(key.access(accessToken)),
    );
    if (!grant || grant.expires <= Date.now())
      throw new InvalidTokenError('invalid or expired access token');
    return {
      token: accessToken,
      clientId: grant.clientId,
      scopes: grant.scopes,
      expiresAt: Math.floor(grant.expires / 1000),
      resource: grant.resource === undefined ? undefined : new URL(grant.resource),
      extra: { person: grant.person, clientName: grant.clientName },
    };
  }

  async revokeToken(_client: OAuthClientInformationFull, request: { token: string }) {
    await this.state.delete(key.access(request.token));
    await this.state.delete(key.refresh(request.token));
  }

  private async code(
    client: OAuthClientInformationFull,
    code: string,
    use: boolean,
  ): Promise<PendingCode> {
    const k = key.code(code);
    const raw = await this.state.get(k);
    const pending = parsed<PendingCode>(raw);
    // Another client's try leaves the code to its own client; a use takes it, once.
    const mine = pending !== null && pending.clientId === client.client_id;
    if (!mine || (use && !(await this.state.release(k, raw!)))) {
      throw new InvalidGrantError('invalid or expired authorization code');
    }
    return pending;
  }

  /** The value, deleted: only the caller whose delete took it gets it (single use). */
  private async take<T>(k: string): Promise<T | null> {
    const raw = await this.state.get(k);
    if (raw === null || !(await this.state.release(k, raw))) return null;
    return parsed<T>(raw);
  }

  private async tokens(grant: Grant): Promise<OAuthTokens> {
    const accessToken = token();
    const refreshToken = token();
    const expires = Date.now() + ACCESS_TTL_S * 1000;
    await this.state.set(
      key.access(accessToken),
      JSON.stringify({ ...grant, expires }),
      ACCESS_TTL_S * 1000,
    );
    await this.state.set(key.refresh(refreshToken), JSON.stringify(grant), REFRESH_TTL_MS);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TTL_S,
      refresh_token: refreshToken,
      scope: grant.scopes.join(' '),
    };
  }
}
