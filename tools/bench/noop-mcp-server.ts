/** A bare stdio MCP server with one no-op tool: the floor bench:box compares against. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'noop', version: '1.0.0' });
server.registerTool('noop', { description: 'does nothing' }, () => ({
  content: [{ type: 'text', text: '{}' }],
}));
void server.connect(new StdioServerTransport());
