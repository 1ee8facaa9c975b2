import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { answer, type ToolContext } from '../tool-kit';

export const createSessionInput = {
  endpointId: z
    .string()
    .min(1)
    .max(200)
    .describe('The UUID of an endpoint visible to this account.'),
};

export function register(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'shellwatch_create_session',
    {
      title: 'Open a terminal session',
      description:
        'Open a terminal session against a configured endpoint. Returns { sessionId, endpointId, status } with status "pending": a person must allow it in the Sessionboxer web UI (an endpoint-auth card) before the SSH handshake; you get a session_status notification when it is open. Refused at once (403) when no approver has the web UI open; errored with a sign timeout after 60 s without an answer.',
      inputSchema: createSessionInput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    ({ endpointId }) => answer(ctx, () => ctx.terminals.create(ctx.caller, endpointId)),
  );
}
