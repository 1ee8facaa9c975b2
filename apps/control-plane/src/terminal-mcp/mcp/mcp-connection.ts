import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import type { TerminalListener } from '../terminals/terminal-runtime';
import type { TerminalClock } from '../terminals/terminal-clock';
import type { ToolContext } from './tool-kit';
import { registerTools } from './tools';

/** The spec's notifications, as MCP notification methods. */
export const OUTPUT_AVAILABLE = 'notifications/output_available';
export const SESSION_STATUS = 'notifications/session_status';

/** The caller of a server: everything but how it is told of output (the server's to say). */
export type ServerContext = Omit<ToolContext, 'caller'> & {
  caller: Omit<ToolContext['caller'], 'listener'>;
};

/** The terminal MCP server of one connection (one AgentSession): its tools, its notifications. */
export function createTerminalServer(ctx: ServerContext): McpServer {
  const server = new McpServer(
    { name: 'sessionboxer-terminals', version: '0.1.0' },
    { capabilities: { tools: {} } },
  );
  const notify = (method: string, params: Record<string, unknown>) => {
    const notification = { method, params } as unknown as ServerNotification;
    server.server.notification(notification).catch(() => undefined);
  };
  const listener: TerminalListener = {
    outputAvailable: (sessionId, offset) => notify(OUTPUT_AVAILABLE, { sessionId, offset }),
    sessionStatus: (sessionId, status, endpointId) =>
      notify(SESSION_STATUS, { sessionId, status, endpointId }),
  };
  registerTools(server, { ...ctx, caller: { ...ctx.caller, listener } });
  return server;
}

/**
 * One MCP connection: one AgentSession with its own server, transport and terminals. It
 * lasts while its notification stream (GET /mcp) is open or requests keep coming; after
 * `leaseMs` without either, or on DELETE, it closes, and its terminals with it.
 */
export class McpConnection {
  readonly server: McpServer;
  readonly transport: StreamableHTTPServerTransport;
  private streams = 0;
  private cancelLease: (() => void) | null = null;

  constructor(
    readonly id: string,
    /** Who may use this connection: the token's client and person (or API key). */
    readonly principal: string,
    ctx: ServerContext,
    allowedHosts: string[],
    private readonly clock: TerminalClock,
    private readonly leaseMs: number,
    onClose: (c: McpConnection) => void,
  ) {
    this.server = createTerminalServer(ctx);
    this.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableDnsRebindingProtection: true,
      allowedHosts,
    });
    this.transport.onclose = () => {
      this.cancelLease?.();
      onClose(this);
    };
  }

  async handle(req: Request, res: Response, body: unknown): Promise<void> {
    this.cancelLease?.();
    this.cancelLease = null;
    const stream = req.method === 'GET';
    if (stream) this.streams += 1;
    res.once('close', () => {
      if (stream) this.streams -= 1;
      if (this.streams === 0 && this.cancelLease === null) {
        this.cancelLease = this.clock.after(this.leaseMs, () => void this.close());
      }
    });
    await this.transport.handleRequest(req, res, body);
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
