import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { SqliteSharedState } from '../../infrastructure/shared-state/sqlite-shared-state';
import { TerminalOAuth } from './terminal-oauth';

/**
 * The OAuth state lives in the shared state (a real SQLite file here), so what one instance
 * issued another knows, a restart keeps it, and a one-time code or refresh token is taken once.
 */
describe('TerminalOAuth on the shared state', () => {
  let dir: string;
  let file: string;
  const open: SqliteSharedState[] = [];
  const instance = () => {
    const state = new SqliteSharedState(file);
    open.push(state);
    return new TerminalOAuth(state);
  };
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'terminal-oauth-'));
    file = path.join(dir, 'shared.sqlite');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function registered(oauth: TerminalOAuth): Promise<OAuthClientInformationFull> {
    return oauth.clientsStore.registerClient!({
      client_name: 'test client',
      redirect_uris: ['http://127.0.0.1:1/cb'],
    });
  }
  const params = {
    codeChallenge: 'challenge-1',
    redirectUri: 'http://127.0.0.1:1/cb',
    scopes: ['terminals'],
    resource: new URL('http://127.0.0.1:8091/mcp'),
  };

  it('knows a client, its code and its tokens from another instance (or after a restart)', async () => {
    const a = instance();
    const client = await registered(a);
    const code = await a.issueCode(client, params, 'alice');
    const b = instance();
    expect(await b.clientsStore.getClient(client.client_id)).toMatchObject({
      client_name: 'test client',
    });
    expect(await b.challengeForAuthorizationCode(client, code)).toBe('challenge-1');
    const tokens = await b.exchangeAuthorizationCode(client, code, undefined, params.redirectUri);
    const info = await a.verifyAccessToken(tokens.access_token);
    expect(info).toMatchObject({
      clientId: client.client_id,
      scopes: ['terminals'],
      extra: { person: 'alice', clientName: 'test client' },
    });
    expect(info.resource?.href).toBe('http://127.0.0.1:8091/mcp');
    const refreshed = await a.exchangeRefreshToken(client, tokens.refresh_token!);
    await expect(b.verifyAccessToken(refreshed.access_token)).resolves.toMatchObject({
      clientId: client.client_id,
    });
  });

  it('gives a code to one of two concurrent exchanges, and never again', async () => {
    const a = instance();
    const b = instance();
    const client = await registered(a);
    const code = await a.issueCode(client, params, 'alice');
    const results = await Promise.allSettled([
      a.exchangeAuthorizationCode(client, code),
      b.exchangeAuthorizationCode(client, code),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    await expect(a.exchangeAuthorizationCode(client, code)).rejects.toThrow(
      /invalid or expired authorization code/,
    );
  });

  it('takes a refresh token once, refuses another client its code, and forgets revoked tokens', async () => {
    const a = instance();
    const client = await registered(a);
    const other = await registered(a);
    const code = await a.issueCode(client, params, 'alice');
    await expect(a.exchangeAuthorizationCode(other, code)).rejects.toThrow(/authorization code/);
    const tokens = await a.exchangeAuthorizationCode(client, code);
    await a.exchangeRefreshToken(client, tokens.refresh_token!);
    await expect(a.exchangeRefreshToken(client, tokens.refresh_token!)).rejects.toThrow(
      /unknown refresh token/,
    );
    await a.revokeToken(client, { token: tokens.access_token });
    await expect(instance().verifyAccessToken(tokens.access_token)).rejects.toThrow(
      /invalid or expired access token/,
    );
  });
});
