import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { ApiKeys, type KeyIdentity } from '../api-keys';
import { Public } from '../auth';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import { SESSIONBOXER_VERSION } from '../version';
import { callTool } from './call-tool';
import { ImageAnswer } from './desktop/image-answer';
import { SandboxApiService } from './sandbox-api.service';
import { SANDBOX_TOOLS } from './tools';

/**
 * The sandbox MCP server over Streamable HTTP at /mcp, stateless: every request carries the
 * API key as its bearer and is checked again (a key revoked while a client stays connected
 * is refused at its next call). A browser's foreign Origin is refused with 403; the Host
 * header is checked by the SDK's DNS-rebinding protection.
 */
@ApiExcludeController()
@Public()
@Controller('mcp')
export class McpController {
  constructor(
    private readonly keys: ApiKeys,
    private readonly api: SandboxApiService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @All()
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    const origin = req.headers.origin;
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
    const server = this.server(caller);
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

  private server(caller: KeyIdentity): McpServer {
    const server = new McpServer(
      { name: 'sessionboxer-sandboxes', version: SESSIONBOXER_VERSION },
      { jsonSchemaValidator: VALIDATOR },
    );
    for (const tool of SANDBOX_TOOLS) {
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: STRICT.get(tool.name),
          annotations: tool.annotations,
        },
        async (args: unknown) => {
          const out = await callTool(tool, this.api.services, caller, args);
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
