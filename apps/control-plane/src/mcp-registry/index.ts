export { McpRegistryModule } from './mcp-registry.module';
export { McpRelays, type RelayHost, type RelayedServer } from './mcp-relays';
export { McpRegistrySync } from './registry-sync';
