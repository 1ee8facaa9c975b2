import type { ServerResponse } from 'node:http';
import { SIDE_ANSWER, say, stopsForTools, type Script, type ScriptStep } from './script';

/**
 * The Anthropic Messages API as the double speaks it (docs.anthropic.com, "Streaming
 * Messages"): `POST /v1/messages` answered as SSE (message_start, content_block_start / delta
 * / stop with text_delta or input_json_delta, message_delta with the stop reason,
 * message_stop), or as one JSON message when `stream` is not true.
 */

type Json = Record<string, unknown>;

/** The main conversation (the agent's loop) sends tools; title and topic requests send none. */
export function isMainAnthropic(body: Json): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

export function anthropicAnswered(body: Json): number {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  return messages.filter((m) => m?.role === 'assistant').length;
}

/** The tool_result blocks of the request's last user message. */
export function anthropicToolResults(body: Json): Json[] {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const last = messages[messages.length - 1];
  const content = Array.isArray(last?.content) ? (last.content as Json[]) : [];
  return content.filter((b) => b?.type === 'tool_result');
}

function blocks(step: ScriptStep, script: Script): Json[] {
  return step.map((b) =>
    b.type === 'text'
      ? { type: 'text', text: b.text }
      : { type: 'tool_use', id: script.nextId('toolu_'), name: b.name, input: b.input },
  );
}

function message(body: Json, content: Json[], stop: string | null): Json {
  return {
    id: `msg_double${Date.now().toString(36)}`,
    type: 'message',
    role: 'assistant',
    model: typeof body.model === 'string' ? body.model : 'claude-double',
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: stop === null ? 1 : 7 },
  };
}

function sse(res: ServerResponse, event: string, data: Json): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

/** Answers one Messages request with the script's step (or a short text for a side request). */
export function answerAnthropic(res: ServerResponse, body: Json, script: Script): void {
  const step = isMainAnthropic(body) ? script.stepFor(anthropicAnswered(body)) : [say(SIDE_ANSWER)];
  const content = blocks(step, script);
  const stop = stopsForTools(step) ? 'tool_use' : 'end_turn';
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_double' });
    res.end(JSON.stringify(message(body, content, stop)));
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'request-id': 'req_double',
  });
  sse(res, 'message_start', { message: message(body, [], null) });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
      const delta = { type: 'text_delta', text: block.text };
      sse(res, 'content_block_delta', { index, delta });
    } else {
      const start = { ...block, input: {} };
      sse(res, 'content_block_start', { index, content_block: start });
      const delta = { type: 'input_json_delta', partial_json: JSON.stringify(block.input) };
      sse(res, 'content_block_delta', { index, delta });
    }
    sse(res, 'content_block_stop', { index });
  });
  const usage = { output_tokens: 7 };
  sse(res, 'message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage });
  sse(res, 'message_stop', {});
  res.end();
}

/** `POST /v1/messages/count_tokens`: a rough count, a token per four characters. */
export function countTokens(body: Json): Json {
  return { input_tokens: Math.max(1, Math.ceil(JSON.stringify(body.messages ?? []).length / 4)) };
}
