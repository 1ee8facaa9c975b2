import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { BOX_EDGE } from '@sessionboxer/mcp-adapters';
import { bindInBoxFolder } from '../boxes';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import {
  anthropicAuth,
  openAiAuth,
  relayToProvider,
  type CredentialValue,
  type ProviderTarget,
} from '../provider-relay';
import { SandboxSecrets } from './sandbox-secrets';

/** The sandbox's secret each provider credential is read from (the agent uses the org's own key). */
const SECRET_OF = {
  anthropicApiKey: 'ANTHROPIC_API_KEY',
  claudeCodeOauthToken: 'CLAUDE_CODE_OAUTH_TOKEN',
  openaiApiKey: 'OPENAI_API_KEY',
} as const;

/**
 * A sandbox's one way out, for its coding agents: `edge.sock` in its run folder (seen as
 * /run/sessionboxer/edge.sock), which the box's forwarder pipes 127.0.0.1:7001 to. It relays
 * `/provider/anthropic` and `/provider/openai` to the providers' URLs from settings with the
 * credential from the sandbox's own secrets, and refuses everything else: a sandbox has no
 * other network (docs/SANDBOXES.md).
 */
@Injectable()
export class SandboxEdge implements OnApplicationShutdown {
  private readonly logger = new Logger('SandboxEdge');
  private readonly open = new Map<string, { server: http.Server; dirFd: number }>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: SandboxSecrets,
  ) {}

  /** Opens the sandbox's edge socket if it is not open (after a restart, say). */
  async ensure(sandboxId: string, runDir: string): Promise<void> {
    if (this.open.has(sandboxId)) return;
    const server = http.createServer((req, res) => this.answer(sandboxId, req, res));
    server.on('error', (e) => this.logger.warn(`edge of sandbox ${sandboxId}: ${e.message}`));
    const dirFd = await bindInBoxFolder(server, path.join(runDir, path.basename(BOX_EDGE.socket)));
    this.open.set(sandboxId, { server, dirFd });
  }

  async close(sandboxId: string): Promise<void> {
    const edge = this.open.get(sandboxId);
    if (!edge) return;
    this.open.delete(sandboxId);
    edge.server.closeAllConnections();
    await new Promise<void>((resolve) => edge.server.close(() => resolve()));
    fs.closeSync(edge.dirFd);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.close(id)));
  }

  private answer(sandboxId: string, req: http.IncomingMessage, res: http.ServerResponse): void {
    const target = req.url ?? '/';
    const value: CredentialValue = (name) =>
      name in SECRET_OF
        ? (this.secrets.valueOf(sandboxId, SECRET_OF[name as keyof typeof SECRET_OF]) ?? null)
        : null;
    const routes: [string, () => ProviderTarget][] = [
      [
        BOX_EDGE.routes.anthropic,
        () => ({
          provider: 'Anthropic',
          baseUrl: this.config.providers.anthropic,
          auth: anthropicAuth(value),
        }),
      ],
      [
        BOX_EDGE.routes.openai,
        () => ({
          provider: 'OpenAI',
          baseUrl: this.config.providers.openai,
          auth: openAiAuth(value),
        }),
      ],
    ];
    for (const [prefix, of] of routes) {
      const next = target.charAt(prefix.length);
      if (!target.startsWith(prefix) || (next !== '' && next !== '/' && next !== '?')) continue;
      const rest = target.slice(prefix.length);
      const subPath = rest === '' ? '/' : rest.startsWith('?') ? `/${rest}` : rest;
      return relayToProvider(req, res, subPath, of());
    }
    req.resume();
    const body = `a sandbox's agents reach only their model provider (${BOX_EDGE.routes.anthropic}, ${BOX_EDGE.routes.openai}); ${req.method ?? ''} ${target} is not one\n`;
    res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(body);
  }
}
