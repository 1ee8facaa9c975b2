import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { answer, type ToolContext } from '../tool-kit';

export function register(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'shellwatch_manage_keys',
    {
      title: 'List SSH keys',
      description:
        'List SSH keys (file + passkey) available to the account. Returns key metadata only ({ keyId, kind, name, type, fingerprint, comment, createdAt }), never the private key material. Keys are added by a person in the web UI.',
      inputSchema: { action: z.enum(['list']) },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    () => answer(ctx, () => ctx.keys.list()),
  );
}
