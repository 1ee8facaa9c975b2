import type { AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { isDomainError } from '@sessionboxer/domain';
import type { Request, Response } from 'express';
import type { AuthService } from '../../auth';
import { consentPage } from './consent-page';
import type { TerminalOAuth } from './terminal-oauth';

const field = (body: Record<string, unknown>, name: string): string | undefined =>
  typeof body[name] === 'string' ? body[name] : undefined;

/**
 * POST /consent: the consent page's answer. The authorization request is checked again (the
 * client, its registered redirect URI, a PKCE challenge), the person signs in with the local
 * account (throttled like every sign-in), and only then does the client get a code.
 */
export function consentRoute(oauth: TerminalOAuth, auth: AuthService, origin: string) {
  return async (req: Request, res: Response): Promise<void> => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (req.headers.origin !== undefined && req.headers.origin !== origin) {
      res.status(403).type('text').send("a consent from another site's page is refused");
      return;
    }
    const client = await oauth.clientsStore.getClient(field(body, 'client_id') ?? '');
    const redirectUri = field(body, 'redirect_uri');
    const codeChallenge = field(body, 'code_challenge');
    if (!client || !redirectUri || !client.redirect_uris.includes(redirectUri) || !codeChallenge) {
      res
        .status(400)
        .type('text')
        .send('unknown client, unregistered redirect_uri or no code_challenge');
      return;
    }
    const state = field(body, 'state');
    const resource = field(body, 'resource');
    const params: AuthorizationParams = {
      redirectUri,
      codeChallenge,
      state,
      scopes: field(body, 'scope')?.split(' ').filter(Boolean),
      resource: resource && URL.canParse(resource) ? new URL(resource) : undefined,
    };
    const target = new URL(redirectUri);
    if (state !== undefined) target.searchParams.set('state', state);
    if (field(body, 'decision') !== 'allow') {
      target.searchParams.set('error', 'access_denied');
      res.redirect(302, target.href);
      return;
    }
    const username = field(body, 'username');
    try {
      const address = req.socket.remoteAddress ?? 'unknown';
      const signedIn = await auth.signIn(username, field(body, 'password'), {
        address,
        headers: {},
      });
      // The consent needs the person, not a browser session: that sign-in ends here.
      await auth.signOut({ authorization: `Bearer ${signedIn.token}` });
    } catch (e) {
      const message = isDomainError(e) ? e.message : 'sign-in failed';
      res
        .status(401)
        .type('html')
        .send(consentPage(client, params, message));
      return;
    }
    target.searchParams.set('code', await oauth.issueCode(client, params, username as string));
    res.redirect(302, target.href);
  };
}
