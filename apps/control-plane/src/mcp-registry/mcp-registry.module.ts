import { Module } from '@nestjs/common';
import { BoxesModule } from '../boxes';
import { SettingsModule } from '../settings';
import { McpRelays } from './mcp-relays';
import { McpRegistrySync } from './registry-sync';

/**
 * Global settings' MCP registry in the boxes: every box's .mcp.json lists it, and the outside
 * servers it gives (the terminal MCP) are relayed over the box's channel, the session as caller.
 * A feature registers its relayed server with McpRelays at init.
 */
@Module({
  imports: [BoxesModule, SettingsModule],
  providers: [McpRelays, McpRegistrySync],
  exports: [McpRelays, McpRegistrySync],
})
export class McpRegistryModule {}
