import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { answer, type ToolContext } from '../tool-kit';

export function register(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'shellwatch_close_session',
    {
      title: 'Close a terminal session',
      description:
        'Close a session (the SSH connection ends). Sessions are also auto-closed when the MCP transport disconnects.',
      inputSchema: { sessionId: z.string().min(1).max(200) },
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    ({ sessionId }) => answer(ctx, () => ctx.terminals.close(ctx.caller.owner, sessionId)),
  );
}
