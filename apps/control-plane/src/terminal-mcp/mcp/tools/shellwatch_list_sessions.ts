import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { answer, type ToolContext } from '../tool-kit';

export function register(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'shellwatch_list_sessions',
    {
      title: 'List my terminal sessions',
      description:
        'List sessions owned by this MCP client connection: an array of { sessionId, endpointId, status, createdAt }; status is pending, open, closed or errored.',
      inputSchema: {},
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    () => answer(ctx, () => ctx.terminals.list(ctx.caller.owner)),
  );
}
