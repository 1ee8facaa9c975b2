import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Request, Response } from 'express';
import { tokenTools } from '@sessionboxer/domain/sandbox-token';
import { z } from 'zod';
import { ApiKeys } from '../api-keys';
import { Public } from '../auth';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import { SESSIONBOXER_VERSION } from '../version';
import { callTool, type CallOutcome } from './call-tool';
import { ImageAnswer } from './desktop/image-answer';
import { SandboxApiService } from './sandbox-api.service';
import { SANDBOX_TOOLS, type AnySandboxTool } from './tools';
import { callAsToken, isSandboxToken, SandboxTokens, tokenMay, type TokenIdentity } from './tokens';
import { allowOrigin, answerPreflight } from './tokens/token-cors';

/**
 * The sandbox MCP server over Streamable HTTP at /mcp, stateless: every request carries the
 * API key as its bearer and is checked again (a key revoked while a client stays connected
 * is refused at its next call). A browser's foreign Origin is refused with 403; the Host
 * header is checked by the SDK's DNS-rebinding protection. A sandbox token (sbt_…) instead
 * sees only the desktop tools its abilities allow, on its sandbox, from its own origins.
 */
@ApiExcludeController()
@Public()
@Controller('mcp')
export class McpController {
  constructor(
    private readonly keys: ApiKeys,
    private readonly api: SandboxApiService,
    private readonly tokens: SandboxTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @All()
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (answerPreflight(req, res)) return;
    const origin = req.headers.origin;
    if (isSandboxToken(req.headers.authorization)) return this.handleToken(req, res, origin);
    if (origin !== undefined && !this.origins().includes(origin)) {
      res.status(403).json(rpcError(-32000, `Origin ${origin} may not call this MCP server`));
      return;
    }
    const caller = await this.keys.authenticate(req.headers.authorization);
    if (caller === null) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="sessionboxer-sandboxes"');
      res.status(401).json(rpcError(-32001, 'an API key is needed: Authorization: Bearer sbk_…'));
      return;
    }
    const tools = SANDBOX_TOOLS.map((tool) => ({
      tool,
      run: (args: unknown) => callTool(tool, this.api.services, caller, args),
    }));
    await this.serve(req, res, this.server(tools));
  }

  /** A token's request: its own checks, and only the tools it may call. */
  private async handleToken(req: Request, res: Response, origin: string | undefined) {
    const auth = await this.tokens.authenticate(req.headers.authorization, origin);
    if (!auth.ok) {
      if (auth.status === 401)
        res.setHeader('WWW-Authenticate', 'Bearer realm="sessionboxer-sandboxes"');
      res.status(auth.status).json(rpcError(auth.status === 401 ? -32001 : -32000, auth.message));
      return;
    }
    const identity = auth.identity;
    allowOrigin(res, origin);
    const reach = tokenTools(identity.abilities);
    const unlisted = this.unlistedCall(req.body, identity, reach);
    if (unlisted !== null) {
      res.status(200).json(unlisted);
      return;
    }
    const tools = SANDBOX_TOOLS.filter((t) => reach.includes(t.name)).map((tool) => ({
      tool,
      run: (args: unknown) =>
        callAsToken(tool, this.api.services, this.tokens, identity, args, 'mcp'),
    }));
    await this.serve(req, res, this.server(tools));
  }

  /**
   * A tools/call of a tool the token's server does not list: answered here with tokenMay's
   * refusal as a tool error, where the SDK would only say "Tool … not found".
   */
  private unlistedCall(body: unknown, identity: TokenIdentity, reach: string[]) {
    const msg = body as {
      method?: unknown;
      id?: unknown;
      params?: { name?: unknown; arguments?: unknown };
    };
    if (msg?.method !== 'tools/call' || typeof msg.params?.name !== 'string') return null;
    if (reach.includes(msg.params.name)) return null;
    const verdict = tokenMay(msg.params.name, msg.params.arguments, identity, () => null);
    const error = verdict.ok
      ? { error: 'forbidden', message: 'not a tool of this token' }
      : verdict.error;
    const content = [{ type: 'text', text: JSON.stringify(error) }];
    return { jsonrpc: '2.0', id: msg.id ?? null, result: { content, isError: true } };
  }

  private async serve(req: Request, res: Response, server: McpServer): Promise<void> {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedHosts: this.hosts(),
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  private server(
    tools: { tool: AnySandboxTool; run: (args: unknown) => Promise<CallOutcome> }[],
  ): McpServer {
    const server = new McpServer(
      { name: 'sessionboxer-sandboxes', version: SESSIONBOXER_VERSION },
      { jsonSchemaValidator: VALIDATOR },
    );
    for (const { tool, run } of tools) {
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: STRICT.get(tool.name),
          annotations: tool.annotations,
        },
        async (args: unknown) => {
          const out = await run(args);
          if (out.ok && out.result instanceof ImageAnswer) return { content: out.result.content() };
          const body = out.ok ? out.result : out.error;
          return {
            content: [{ type: 'text' as const, text: JSON.stringify(body) }],
            ...(out.ok ? {} : { isError: true }),
          };
        },
      );
    }
    return server;
  }

  private urls(): URL[] {
    const port = new URL(this.config.publicUrl).port || String(this.config.port);
    return [this.config.publicUrl, `http://127.0.0.1:${port}`, `http://localhost:${port}`].map(
      (u) => new URL(u),
    );
  }

  private origins(): string[] {
    return this.urls().map((u) => u.origin);
  }

  private hosts(): string[] {
    return this.urls().map((u) => u.host);
  }
}

/**
 * One JSON Schema validator for every request's server: the SDK makes a new Ajv per server by
 * default, and a stateless server is made per request (it only uses it for elicitation).
 */
const VALIDATOR = new AjvJsonSchemaValidator();

/** Each tool's schema, strict (an unknown parameter is refused), built once. */
const STRICT = new Map(SANDBOX_TOOLS.map((t) => [t.name, z.object(t.input).strict()]));

function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
