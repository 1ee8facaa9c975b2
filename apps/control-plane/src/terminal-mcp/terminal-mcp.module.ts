import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys';
import { AuthModule } from '../auth';
import { PresenceModule } from '../presence';
import { McpRegistryModule } from '../mcp-registry';
import { SettingsModule } from '../settings';
import { SshEndpoints } from './endpoints/ssh-endpoints.service';
import { SshKeys } from './keys/ssh-keys.service';
import { TerminalMcpServer } from './mcp/terminal-mcp-server';
import { TerminalRelayHost } from './mcp/terminal-relay-host';
import { TerminalClock } from './terminals/terminal-clock';
import { TerminalsController } from './terminals/terminals.controller';
import { Terminals } from './terminals/terminals.service';
import { TerminalsFeed } from './terminals/terminals-feed';
import { TerminalCommands } from './terminals/terminal-commands';

/**
 * The terminal MCP (the ShellWatch surface): SSH endpoints and keys, terminals a person
 * approves before the handshake, and the MCP server on its own listener (docs/TERMINALS.md).
 */
@Module({
  imports: [AuthModule, PresenceModule, ApiKeysModule, SettingsModule, McpRegistryModule],
  controllers: [TerminalsController],
  providers: [
    SshEndpoints,
    SshKeys,
    Terminals,
    TerminalCommands,
    TerminalsFeed,
    TerminalClock,
    TerminalMcpServer,
    TerminalRelayHost,
  ],
  exports: [TerminalMcpServer, TerminalClock],
})
export class TerminalMcpModule {}
