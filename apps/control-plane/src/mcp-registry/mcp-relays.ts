import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  DomainError,
  ErrorCode,
  isRelayedEntry,
  RELAYED_MCP_SERVERS,
  type RelayedMcpServer,
} from '@sessionboxer/domain';
import { relayCallArgs } from '@sessionboxer/mcp-adapters';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import { SettingsService } from '../settings';
import { RelayTransport } from './relay-transport';

/** One relayed connection's server, as the feature that owns the server opens it. */
export interface RelayedServer {
  server: McpServer;
  /** Called once the connection closed (its terminals close with it, say). */
  closed(): Promise<void>;
}

/** A feature's outside MCP server, opened once per connection of a session's agent. */
export interface RelayHost {
  open(sessionId: string): Promise<RelayedServer>;
}

interface Connection {
  transport: RelayTransport;
  opened: RelayedServer;
  lastUse: number;
}

const SWEEP_MS = 5_000;
/** Relayed connections one session may hold open at once (each harness turn opens one). */
export const RELAY_CONNECTIONS_MAX = 16;

/**
 * The MCP registry's relayed servers (`relay` entries of Global settings' mcpRegistry): a box's
 * relay process sends each message of its connection here as a `relay` call, over the box's
 * channel, so the session comes from the socket. One connection is one caller (for the terminal
 * MCP, one AgentSession owned by that session). A connection opens only while the registry
 * gives the server; it closes when the relay says so or after the lease without a message (the
 * relay sends one every few seconds while it runs: a box that is gone stops them).
 */
@Injectable()
export class McpRelays implements OnApplicationShutdown {
  private readonly logger = new Logger('McpRelays');
  private readonly hosts = new Map<RelayedMcpServer, RelayHost>();
  private readonly connections = new Map<string, Connection>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: SettingsService,
  ) {}

  register(server: RelayedMcpServer, host: RelayHost): void {
    this.hosts.set(server, host);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    await Promise.all([...this.connections.keys()].map((k) => this.close(k)));
  }

  /** One `relay` call of `sessionId`'s box; answers `{ messages }`. */
  async handle(sessionId: string, server: string, rawArgs: unknown) {
    const args = relayCallArgs.safeParse(rawArgs);
    if (!args.success) {
      const why = args.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`);
      throw new DomainError(ErrorCode.ValidationFailed, `relay ${server}: ${why.join('; ')}`);
    }
    const { connection, message, close } = args.data;
    const key = `${sessionId}/${server}/${connection}`;
    if (close) {
      await this.close(key);
      return { messages: [] };
    }
    let conn = this.connections.get(key);
    if (!conn) conn = await this.open(key, sessionId, server);
    conn.lastUse = Date.now();
    if (message === undefined) return { messages: conn.transport.drain() };
    const parsed = JSONRPCMessageSchema.safeParse(message);
    if (!parsed.success) {
      throw new DomainError(ErrorCode.ValidationFailed, 'message is not a JSON-RPC 2.0 message');
    }
    return { messages: await conn.transport.deliver(parsed.data) };
  }

  private async open(key: string, sessionId: string, server: string): Promise<Connection> {
    const host = (RELAYED_MCP_SERVERS as readonly string[]).includes(server)
      ? this.hosts.get(server as RelayedMcpServer)
      : undefined;
    const { mcpRegistry } = await this.settings.current();
    const given = mcpRegistry.some((e) => isRelayedEntry(e) && e.relay === server);
    if (!host || !given) {
      throw new DomainError(
        ErrorCode.NotFound,
        `no MCP server ${server} is given to sessions' agents: add {"name": "${server}", "relay": "${server}"} to Global settings → MCP registry`,
      );
    }
    const existing = this.connections.get(key);
    if (existing) return existing;
    const mine = [...this.connections.keys()].filter((k) => k.startsWith(`${sessionId}/`));
    if (mine.length >= RELAY_CONNECTIONS_MAX) {
      throw new DomainError(
        ErrorCode.LimitReached,
        `this session holds ${mine.length} relayed MCP connections, the most it may; end one (its process) first`,
      );
    }
    const opened = await host.open(sessionId);
    const transport = new RelayTransport();
    const conn: Connection = { transport, opened, lastUse: Date.now() };
    this.connections.set(key, conn);
    await opened.server.connect(transport);
    this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
    return conn;
  }

  private sweep(): void {
    const leaseMs = this.config.terminalMcp.leaseMs;
    for (const [key, conn] of this.connections) {
      if (Date.now() - conn.lastUse > leaseMs) void this.close(key);
    }
  }

  private async close(key: string): Promise<void> {
    const conn = this.connections.get(key);
    if (!conn) return;
    this.connections.delete(key);
    await conn.transport.close();
    await conn.opened.server.close().catch(() => undefined);
    await conn.opened.closed().catch((e: unknown) => {
      this.logger.warn(`closing relayed connection ${key}: ${String(e)}`);
    });
    if (this.connections.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }
}
