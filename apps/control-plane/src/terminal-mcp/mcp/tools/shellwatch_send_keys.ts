import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { KEY_TOKENS_MAX } from '@sessionboxer/domain';
import { z } from 'zod';
import { answer, type ToolContext } from '../tool-kit';

export const sendKeysInput = {
  sessionId: z.string().min(1).max(200).describe('Must be owned by this agent.'),
  keys: z
    .array(z.string())
    .min(1)
    .max(KEY_TOKENS_MAX)
    .describe('Key tokens: "text:<literal>", a named key, or ctrl:/alt: with a letter.'),
};

export function register(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'shellwatch_send_keys',
    {
      title: 'Send keys to a terminal',
      description:
        'Send keystrokes / text to a session. keys is an array of key tokens: text:<literal> (verbatim characters, e.g. "text:ls -la"); named keys enter, tab, escape, backspace, space, up, down, left, right, home, end, pageup, pagedown, delete, insert, f1–f12; modifier-prefixed ctrl:c, ctrl:d, ctrl:l, alt:f, etc. Example: ["text:vim file.txt", "enter"]. An unknown token refuses the whole call (it is named) and nothing is sent.',
      inputSchema: sendKeysInput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    ({ sessionId, keys }) =>
      answer(ctx, () => ctx.terminals.send(ctx.caller.owner, sessionId, keys)),
  );
}
