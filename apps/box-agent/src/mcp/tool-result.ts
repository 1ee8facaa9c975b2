import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DaemonAnswer } from './daemon-client';

/** Results are JSON text (the spec); pretty-printed because a model reads them. */
export function jsonResult(result: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result ?? null, null, 2) }] };
}

/** A failure the model can act on: a tool result with isError, its text saying why. */
export function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

export function answerResult(answer: DaemonAnswer): CallToolResult {
  if (answer.ok) return jsonResult(answer.result);
  return errorResult(`${answer.error.message} (${answer.error.code})`);
}
