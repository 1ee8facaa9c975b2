import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ModelProviderDouble,
  say,
  use,
} from '../../test/doubles/model-provider/model-provider-double';
import { ANTHROPIC_OAUTH_BETA, PLACEHOLDER_KEY } from './provider-credentials';
import { relayToProvider, type ProviderTarget } from './relay';

const KEY = `sk-ant-api03-${'Rl7'.repeat(10)}-relay`;

/** A stand-in for the box's edge: every request goes to the relay with the target of the day. */
async function edge(target: () => ProviderTarget): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => relayToProvider(req, res, req.url ?? '/', target()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const close = (s: Server) => {
  s.closeAllConnections();
  return new Promise<void>((resolve) => s.close(() => resolve()));
};

const messages = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': PLACEHOLDER_KEY, ...headers },
    body: JSON.stringify({
      model: 'claude-double',
      stream: true,
      tools: [{ name: 'Bash', input_schema: { type: 'object' } }],
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });

describe('relayToProvider', () => {
  let double: ModelProviderDouble;
  let target: ProviderTarget;
  let box: { url: string; server: Server };
  let slow: Server | null = null;

  beforeAll(async () => {
    double = await ModelProviderDouble.start([[say('Hello.'), use('Bash', { command: 'ls' })]]);
    box = await edge(() => target);
  });
  beforeEach(() => {
    double.requests.length = 0;
    double.play([[say('Hello.'), use('Bash', { command: 'ls' })]]);
    target = { provider: 'Anthropic', baseUrl: double.url, auth: { 'x-api-key': KEY } };
  });
  afterEach(async () => {
    if (slow) await close(slow);
    slow = null;
  });
  afterAll(async () => {
    await close(box.server);
    await double.close();
  });

  it('swaps the box’s placeholder for the real key and streams the SSE answer back', async () => {
    const res = await messages(box.url, { authorization: `Bearer ${PLACEHOLDER_KEY}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const body = await res.text();
    expect(body).toMatch(/^event: message_start\n/);
    expect(body).toContain('"partial_json":"{\\"command\\":\\"ls\\"}"');
    expect(body).toContain('"stop_reason":"tool_use"');
    const [seen] = double.requests;
    expect(seen).toMatchObject({ method: 'POST', path: '/v1/messages?beta=true', kind: 'main' });
    expect(seen.headers['x-api-key']).toBe(KEY);
    expect(seen.headers.authorization).toBeUndefined();
    expect(JSON.stringify(double.requests)).not.toContain(PLACEHOLDER_KEY);
  });

  it('sends an OAuth token as a bearer with the beta flag, added once to the CLI’s own', async () => {
    target = {
      ...target,
      auth: { authorization: `Bearer ${KEY}`, 'anthropic-beta': ANTHROPIC_OAUTH_BETA },
    };
    const beta = `fine-grained-tool-streaming-2025-05-14,${ANTHROPIC_OAUTH_BETA}`;
    await (await messages(box.url, { 'anthropic-beta': beta })).text();
    const [seen] = double.requests;
    expect(seen.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen.headers['x-api-key']).toBeUndefined();
    expect(seen.headers['anthropic-beta']).toBe(beta);
  });

  it('relays OpenAI chat completions with the bearer swapped, tool_calls streamed', async () => {
    double.play([[say('Listing.'), use('list_files', { dir: '.' })]]);
    target = { provider: 'OpenAI', baseUrl: double.url, auth: { authorization: `Bearer ${KEY}` } };
    const res = await fetch(`${box.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${PLACEHOLDER_KEY}` },
      body: JSON.stringify({
        model: 'gpt-double',
        stream: true,
        stream_options: { include_usage: true },
        tools: [{ type: 'function', function: { name: 'list_files', parameters: {} } }],
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    const chunks = (await res.text()).split('\n\n').filter((c) => c !== '');
    expect(chunks[chunks.length - 1]).toBe('data: [DONE]');
    const data = chunks.slice(0, -1).map((c) => JSON.parse(c.replace(/^data: /, '')));
    const deltas = data.flatMap((d) => d.choices.map((c: any) => c.delta));
    expect(deltas.map((d) => d.content).join('')).toBe('Listing.');
    const args = deltas.flatMap((d) => d.tool_calls ?? []).map((t: any) => t.function.arguments);
    expect(JSON.parse(args.join(''))).toEqual({ dir: '.' });
    expect(data.flatMap((d) => d.choices.map((c: any) => c.finish_reason))).toContain('tool_calls');
    expect(data[data.length - 1].usage).toMatchObject({ total_tokens: 19 });
    expect(double.requests.map((r) => [r.kind, r.api, r.headers.authorization])).toEqual([
      ['main', 'openai', `Bearer ${KEY}`],
    ]);
  });

  it('answers 401 naming the missing credential, and sends nothing on', async () => {
    target = { ...target, auth: null };
    const res = await messages(box.url);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      type: 'error',
      error: {
        type: 'authentication_error',
        message:
          "no Anthropic credential is set: set one under credentials in Sessionboxer's settings",
      },
    });
    expect(double.requests).toEqual([]);
  });

  it('answers 502 naming the provider when it cannot be reached, and never the key', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await close(closed);
    target = { ...target, baseUrl: `http://127.0.0.1:${port}` };
    const res = await messages(box.url);
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(text).toContain(`could not reach Anthropic at 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(text).not.toContain(KEY);
  });

  it('hands each event on as it comes, not when the provider’s answer is complete', async () => {
    let hold: ServerResponse | null = null;
    slow = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message_start\ndata: {}\n\n');
      hold = res;
    });
    const server = slow;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    target = { ...target, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    const res = await messages(box.url);
    const reader = res.body!.getReader();
    const first = await reader.read();
    // The provider has not ended its answer: the first event came through on its own.
    expect(new TextDecoder().decode(first.value)).toBe('event: message_start\ndata: {}\n\n');
    expect(hold).not.toBeNull();
    (hold as unknown as ServerResponse).end('event: message_stop\ndata: {}\n\n');
    const rest = await reader.read();
    expect(new TextDecoder().decode(rest.value)).toContain('message_stop');
  });

  it('refuses a path that is not one', async () => {
    const server = createServer((req, res) => relayToProvider(req, res, 'v1/messages', target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const res = await fetch(`http://127.0.0.1:${port}/x`, { method: 'POST', body: '{}' });
    await close(server);
    expect(res.status).toBe(400);
    expect(double.requests).toEqual([]);
  });
});
