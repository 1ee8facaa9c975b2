import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { READ_LIMIT_MAX } from '../../terminals/output-buffer';
import { answer, type ToolContext } from '../tool-kit';

export const readOutputInput = {
  sessionId: z.string().min(1).max(200),
  afterOffset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Read bytes added after this offset. Pair with the previous endOffset.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(READ_LIMIT_MAX)
    .optional()
    .describe('Max bytes to return (default 65536). Long output may be paginated.'),
};

export function register(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'shellwatch_read_output',
    {
      title: 'Read terminal output',
      description:
        'Read session output. The buffer is append-only with a byte offset. Returns { data, startOffset, endOffset, truncated }: data is text, the offsets are bytes, and a page never cuts a UTF-8 character (it ends before one that would not fit). truncated: more output follows; call again with afterOffset = endOffset. Typical loop: receive output_available with offset → shellwatch_read_output(sessionId, afterOffset = offset).',
      inputSchema: readOutputInput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ sessionId, afterOffset, limit }) =>
      answer(ctx, () => ctx.terminals.read(ctx.caller.owner, sessionId, afterOffset, limit)),
  );
}
