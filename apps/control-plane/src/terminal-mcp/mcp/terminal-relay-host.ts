import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { sidebarQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { READ_MODELS } from '../../infrastructure/tokens';
import { McpRelays, type RelayedServer } from '../../mcp-registry';
import { SshEndpoints } from '../endpoints/ssh-endpoints.service';
import { SshKeys } from '../keys/ssh-keys.service';
import { Terminals } from '../terminals/terminals.service';
import { createTerminalServer } from './mcp-connection';

/**
 * The terminal MCP for sessions' agents, given by Global settings' MCP registry
 * (`{"name": "terminals", "relay": "terminals"}`): each relayed connection is one AgentSession
 * of its own (a fresh owner id, never one a box could name), asked for by that session, so the
 * approval card shows in its transcript. An agent may use and list endpoints, not write them:
 * creating, changing and deleting endpoints stays with people and their clients.
 */
@Injectable()
export class TerminalRelayHost implements OnModuleInit {
  private readonly logger = new Logger('TerminalRelay');

  constructor(
    private readonly relays: McpRelays,
    private readonly terminals: Terminals,
    private readonly endpoints: SshEndpoints,
    private readonly keys: SshKeys,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  onModuleInit(): void {
    this.relays.register('terminals', { open: (sessionId) => this.open(sessionId) });
  }

  private open(sessionId: string): Promise<RelayedServer> {
    const owner = randomUUID();
    const title = sidebarQueries(this.readModels).get(sessionId)?.title;
    const caller = {
      owner,
      actor: { kind: 'agent' as const, sessionId },
      requester: title ? `the agent of session “${title}”` : `the agent of session ${sessionId}`,
      forSession: sessionId,
    };
    const server = createTerminalServer({
      caller,
      canWriteEndpoints: false,
      terminals: this.terminals,
      endpoints: this.endpoints,
      keys: this.keys,
      logger: this.logger,
    });
    const closed = () => this.terminals.closeOwner(owner, 'transport-disconnected');
    return Promise.resolve({ server, closed });
  }
}
