import type { Provider } from '@nestjs/common';
import type { AppConfig } from '../../config';
import { APP_CONFIG } from '../../infrastructure/tokens';
import { SANDBOX_VIEW_TOKENS, type SandboxViewTokens } from '../watch/sandbox-viewer';
import { SandboxTokens } from './sandbox-tokens.service';

/** The installation's own origins: its public URL and the listening port on loopback. */
function ownOrigins(config: AppConfig): string[] {
  const port = new URL(config.publicUrl).port || String(config.port);
  return [config.publicUrl, `http://127.0.0.1:${port}`, `http://localhost:${port}`].map(
    (u) => new URL(u).origin,
  );
}

/**
 * The watch page's seam (sandboxes/watch/) to the tokens: SandboxTokens.authenticate, and the
 * token's first watch recorded (SandboxTokenUsed via watch). The watch page is the
 * installation's own page (the `watch` link of sandbox_desktop), so its own Origin counts as
 * no browser page of another site; any other Origin must be one of the token's origins.
 */
export const watchTokensProvider: Provider = {
  provide: SANDBOX_VIEW_TOKENS,
  inject: [SandboxTokens, APP_CONFIG],
  useFactory: (tokens: SandboxTokens, config: AppConfig): SandboxViewTokens => {
    return {
      async authenticate(bearer, origin) {
        // Read at each call: the public URL is the bound one only once the app listens.
        const own = origin !== undefined && ownOrigins(config).includes(origin);
        const auth = await tokens.authenticate(bearer, own ? undefined : origin);
        if (!auth.ok) return null;
        await tokens.used(auth.identity, 'watch', 'watch', 'view');
        return auth.identity;
      },
    };
  },
};
