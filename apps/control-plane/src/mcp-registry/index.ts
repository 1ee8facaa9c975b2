export { McpRegistryModule } from './mcp-registry.module';
export { McpRelays, RELAY_CONNECTIONS_MAX, type RelayHost, type RelayedServer } from './mcp-relays';
export { McpRegistrySync } from './registry-sync';
