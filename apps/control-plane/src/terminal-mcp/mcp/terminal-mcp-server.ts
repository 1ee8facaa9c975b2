import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import express, { type Request, type Response } from 'express';
import { ApiKeys } from '../../api-keys';
import { AuthService } from '../../auth';
import type { AppConfig } from '../../config';
import { SHARED_STATE, type SharedState } from '../../infrastructure/shared-state';
import { APP_CONFIG } from '../../infrastructure/tokens';
import { SshEndpoints } from '../endpoints/ssh-endpoints.service';
import { SshKeys } from '../keys/ssh-keys.service';
import { bearerVerifier } from '../oauth/bearer-verifier';
import { consentRoute } from '../oauth/consent.route';
import {
  SCOPE_ENDPOINTS_WRITE,
  SCOPE_TERMINALS,
  TERMINAL_SCOPES,
  TerminalOAuth,
} from '../oauth/terminal-oauth';
import { TerminalClock } from '../terminals/terminal-clock';
import { Terminals } from '../terminals/terminals.service';
import { McpConnection } from './mcp-connection';

function rpcError(res: Response, status: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/**
 * The terminal MCP server on its own listener (SESSIONBOXER_TERMINAL_MCP_PORT, the control
 * plane's host): `/mcp` over Streamable HTTP behind a bearer token, and the OAuth endpoints
 * that issue those tokens. Each MCP session is one AgentSession; its id is only ever used
 * with the token that opened it, so another caller naming it gets the answer a made-up id gets.
 */
@Injectable()
export class TerminalMcpServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TerminalMcp');
  private readonly oauth: TerminalOAuth;
  private readonly connections = new Map<string, McpConnection>();
  private server: http.Server | null = null;
  /** Where `/mcp` is served, once listening. */
  url: string | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: AuthService,
    private readonly terminals: Terminals,
    private readonly endpoints: SshEndpoints,
    private readonly keys: SshKeys,
    private readonly clock: TerminalClock,
    private readonly apiKeys: ApiKeys,
    @Inject(SHARED_STATE) state: SharedState,
  ) {
    this.oauth = new TerminalOAuth(state);
  }

  async onApplicationBootstrap(): Promise<void> {
    const { port } = this.config.terminalMcp;
    if (port === null) return;
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.host, () => resolve());
    });
    this.server = server;
    const bound = (server.address() as AddressInfo).port;
    const host =
      this.config.host === '0.0.0.0' || this.config.host === '::' ? '127.0.0.1' : this.config.host;
    const base = new URL(`http://${host.includes(':') ? `[${host}]` : host}:${bound}`);
    server.on('request', this.app(base, bound));
    this.url = new URL('/mcp', base).href;
    this.logger.log(`terminal MCP server on ${this.url}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close().catch(() => undefined)));
    const server = this.server;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private app(base: URL, port: number): express.Express {
    const app = express();
    const mcpUrl = new URL('/mcp', base);
    app.use(
      mcpAuthRouter({
        provider: this.oauth,
        issuerUrl: base,
        resourceServerUrl: mcpUrl,
        scopesSupported: TERMINAL_SCOPES,
        resourceName: 'Sessionboxer terminals',
      }),
    );
    app.post(
      '/consent',
      express.urlencoded({ extended: false, limit: '16kb' }),
      consentRoute(this.oauth, this.auth, base.origin),
    );
    const bearer = requireBearerAuth({
      verifier: bearerVerifier(this.oauth, this.apiKeys),
      requiredScopes: [SCOPE_TERMINALS],
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    });
    const hosts = [`${base.hostname}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`];
    app.all('/mcp', express.json({ limit: '1mb' }), bearer, (req, res) => {
      this.mcp(req, res, hosts).catch((e: unknown) => {
        this.logger.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
        if (!res.headersSent)
          rpcError(res, 500, 'internal error; the control plane log has the details');
      });
    });
    return app;
  }

  private async mcp(req: Request, res: Response, hosts: string[]): Promise<void> {
    const info = req.auth as AuthInfo;
    const extra = (key: string, fallback: string) =>
      typeof info.extra?.[key] === 'string' ? info.extra[key] : fallback;
    const principal = `${info.clientId}/${extra('person', '')}`;
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const conn = this.connections.get(sid);
      if (!conn || conn.principal !== principal) return rpcError(res, 404, 'Session not found');
      return conn.handle(req, res, req.body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
      return rpcError(res, 400, 'Bad Request: no mcp-session-id, and not an initialize request');
    }
    const id = randomUUID();
    const person = extra('person', 'unknown');
    const caller = {
      owner: id,
      actor: { kind: 'agent' as const, sessionId: id },
      requester: `${extra('clientName', info.clientId)} (granted by ${person})`,
    };
    const ctx = {
      caller,
      canWriteEndpoints: info.scopes.includes(SCOPE_ENDPOINTS_WRITE),
      terminals: this.terminals,
      endpoints: this.endpoints,
      keys: this.keys,
      logger: this.logger,
    };
    const { leaseMs } = this.config.terminalMcp;
    const conn = new McpConnection(id, principal, ctx, hosts, this.clock, leaseMs, (c) => {
      this.connections.delete(c.id);
      this.terminals.closeOwner(c.id, 'transport-disconnected').catch((e: unknown) => {
        this.logger.warn(`closing the terminals of MCP session ${c.id}: ${String(e)}`);
      });
    });
    this.connections.set(id, conn);
    await conn.server.connect(conn.transport);
    await conn.handle(req, res, req.body);
  }
}
