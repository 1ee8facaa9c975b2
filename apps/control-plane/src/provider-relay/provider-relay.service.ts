import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { HarnessName } from '@sessionboxer/domain';
import { BOX_EDGE } from '@sessionboxer/mcp-adapters';
import type { AppConfig } from '../config';
import { EdgeRoutes } from '../egress';
import { APP_CONFIG } from '../infrastructure/tokens';
import { CredentialsService } from '../settings';
import { anthropicAuth, boxProviderEnv, openAiAuth } from './provider-credentials';
import { relayToProvider, type ProviderTarget } from './relay';

/**
 * The model providers as boxes reach them: the box's edge routes `/provider/anthropic` and
 * `/provider/openai` relay to the providers' URLs from settings, adding the credential from
 * the vault; a turn's environment gets only placeholders and those routes' URLs.
 */
@Injectable()
export class ProviderRelay implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly credentials: CredentialsService,
    private readonly routes: EdgeRoutes,
  ) {}

  onModuleInit(): void {
    this.routes.add(BOX_EDGE.routes.anthropic, (req, res, _caller, subPath) =>
      relayToProvider(req, res, subPath, this.target('anthropic')),
    );
    this.routes.add(BOX_EDGE.routes.openai, (req, res, _caller, subPath) =>
      relayToProvider(req, res, subPath, this.target('openai')),
    );
  }

  /** What a harness's run gets in its environment: placeholders and the relays' URLs. */
  boxEnv(harness: HarnessName): Record<string, string> {
    return boxProviderEnv(harness, (name) => this.credentials.value(name));
  }

  /** Read at each request, so a credential set or cleared takes effect on the next one. */
  target(provider: 'anthropic' | 'openai'): ProviderTarget {
    const value = (name: Parameters<CredentialsService['value']>[0]) =>
      this.credentials.value(name);
    return provider === 'anthropic'
      ? {
          provider: 'Anthropic',
          baseUrl: this.config.providers.anthropic,
          auth: anthropicAuth(value),
        }
      : { provider: 'OpenAI', baseUrl: this.config.providers.openai, auth: openAiAuth(value) };
  }
}
