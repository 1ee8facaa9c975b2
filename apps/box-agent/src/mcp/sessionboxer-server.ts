/**
 * The sessionboxer stdio MCP server of a box (compiled to
 * dist/apps/box-agent/src/mcp/sessionboxer-server.js, listed in the workspace's .mcp.json).
 * stdout carries MCP and nothing else: anything that logs goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { BOX_PATHS } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { DAEMON_VERSION } from '../version';
import { createSessionboxerServer } from './sessionboxer-mcp';

// A stray console.log from any library would corrupt the protocol stream.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

function setting(name: string, fallback: string): string {
  const value = process.env[name]?.trim();
  return value ? value : fallback;
}

async function main(): Promise<void> {
  const server = createSessionboxerServer({
    daemonUrl: setting('SESSIONBOXER_DAEMON_URL', BOX_PATHS.daemonUrl),
    guidePath: setting('SESSIONBOXER_GUIDE_PATH', BOX_PATHS.guide),
    version: DAEMON_VERSION,
  });
  await server.connect(new StdioServerTransport());
}

main().catch((e: unknown) => {
  process.stderr.write(`sessionboxer MCP server failed to start: ${String(e)}\n`);
  process.exit(1);
});
