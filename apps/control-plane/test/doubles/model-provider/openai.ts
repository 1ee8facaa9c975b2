import type { ServerResponse } from 'node:http';
import { SIDE_ANSWER, say, stopsForTools, type Script } from './script';

/**
 * The OpenAI-compatible chat completions API as the double speaks it: `POST
 * /v1/chat/completions` answered as SSE chunks (`data: {chat.completion.chunk}`, content
 * deltas, tool_calls deltas with the arguments as a JSON text, a last chunk with
 * finish_reason, the usage chunk when asked for, `data: [DONE]`), or as one JSON completion.
 */

type Json = Record<string, unknown>;

export function isMainOpenAi(body: Json): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

export function openAiAnswered(body: Json): number {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  return messages.filter((m) => m?.role === 'assistant').length;
}

export function answerOpenAi(res: ServerResponse, body: Json, script: Script): void {
  const step = isMainOpenAi(body) ? script.stepFor(openAiAnswered(body)) : [say(SIDE_ANSWER)];
  const model = typeof body.model === 'string' ? body.model : 'gpt-double';
  const text = step.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n');
  const calls = step.flatMap((b) =>
    b.type === 'tool_use'
      ? [{ id: script.nextId('call_'), name: b.name, args: JSON.stringify(b.input) }]
      : [],
  );
  const finish = stopsForTools(step) ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };
  const base = { id: `chatcmpl-double${Date.now().toString(36)}`, created: 1, model };
  if (body.stream !== true) {
    const tool_calls = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.args },
    }));
    const message = {
      role: 'assistant',
      content: text === '' ? null : text,
      ...(calls.length ? { tool_calls } : {}),
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Json, finish_reason: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({
        ...base,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, finish_reason }],
      })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  if (text !== '') chunk({ content: text });
  calls.forEach((c, index) => {
    chunk({
      tool_calls: [
        { index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } },
      ],
    });
    chunk({ tool_calls: [{ index, function: { arguments: c.args } }] });
  });
  chunk({}, finish);
  const options = body.stream_options as Json | undefined;
  if (options?.include_usage === true) {
    res.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`,
    );
  }
  res.write('data: [DONE]\n\n');
  res.end();
}
