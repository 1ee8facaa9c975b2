import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '@nestjs/common';
import { toErrorAnswer } from '../../errors/error-answer';
import { errorCodeToHttp } from '../../errors/error-mapping';
import type { SshEndpoints } from '../endpoints/ssh-endpoints.service';
import type { SshKeys } from '../keys/ssh-keys.service';
import type { TerminalCaller, Terminals } from '../terminals/terminals.service';

/** What every tool of one MCP connection works with: the caller is the connection's. */
export interface ToolContext {
  caller: TerminalCaller;
  /** False for a grant without the `endpoints:write` scope. */
  canWriteEndpoints: boolean;
  terminals: Terminals;
  endpoints: SshEndpoints;
  keys: SshKeys;
  logger: Logger;
}

/**
 * A tool's answer: the result as JSON text, or a
 * refusal with `isError: true` and the HTTP API's error body, so `statusCode` 404 / 403 reads
 * the same as there ("404 style": a session not owned answers like a missing one).
 */
export async function answer(ctx: ToolContext, run: () => unknown): Promise<CallToolResult> {
  try {
    // JSON text only: a structured copy beside it would send a page of output twice.
    return { content: [{ type: 'text', text: JSON.stringify(await run()) }] };
  } catch (e) {
    const a = toErrorAnswer(e, ctx.logger);
    const body = { statusCode: errorCodeToHttp[a.code], error: a.code, message: a.message };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
  }
}
