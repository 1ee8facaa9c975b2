import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { answerAnthropic, countTokens, isMainAnthropic } from './anthropic';
import { answerOpenAi, isMainOpenAi } from './openai';
import { Script, type ScriptStep } from './script';

export * from './script';
export { anthropicAnswered, anthropicToolResults } from './anthropic';

type Json = Record<string, unknown>;

/** A request the double received, headers included, so tests can check which key it saw. */
export interface ProviderRequest {
  method: string;
  /** Path and query, e.g. `/v1/messages?beta=true`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The JSON body, or null (none, or not JSON). */
  body: Json | null;
  /** `main`: the agent's conversation (it sends tools); `side`: titles, quotas and the like. */
  kind: 'main' | 'side' | 'other';
  api: 'anthropic' | 'openai' | 'none';
  /** performance.now() when the whole body had arrived (for benchmarks). */
  at: number;
  /** performance.now() when the double had written its whole answer (null until then). */
  answered: number | null;
}

const MAX_BODY = 32 * 1024 * 1024;

/**
 * A TEST DOUBLE OF A MODEL PROVIDER: a real HTTP server on 127.0.0.1 (a free port) speaking
 * the Anthropic Messages API (`POST /v1/messages`, streamed as SSE, text and tool_use blocks;
 * `/v1/messages/count_tokens`; the `HEAD /` and `HEAD /api/hello` Claude Code sends first) and
 * the OpenAI-compatible chat completions API (`POST /v1/chat/completions`, streamed, tool_calls
 * deltas), for the agent CLIs the tests run for real. It is no model: it plays a script (see
 * script.ts) on the main conversation and answers every side request with a short text. It
 * records every request. It is not Anthropic nor OpenAI: a test passing against it proves
 * the wire protocol as documented only.
 */
export class ModelProviderDouble {
  readonly requests: ProviderRequest[] = [];
  private readonly script = new Script();
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(steps: ScriptStep[] = []): Promise<ModelProviderDouble> {
    let double: ModelProviderDouble | null = null;
    const server = createServer((req, res) => double?.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    double = new ModelProviderDouble(server, `http://127.0.0.1:${port}`);
    double.play(steps);
    return double;
  }

  /** The script from now on (step 0 answers a conversation with no model answer yet). */
  play(steps: ScriptStep[]): void {
    this.script.play(steps);
  }

  main(): ProviderRequest[] {
    return this.requests.filter((r) => r.kind === 'main');
  }

  /** Every value of `header` the double saw, over all requests. */
  seen(header: string): string[] {
    return this.requests.flatMap((r) => {
      const v = r.headers[header.toLowerCase()];
      return v === undefined ? [] : Array.isArray(v) ? v : [v];
    });
  }

  /** Resolves with the first request (from `from` on) that `matches`, once it has come. */
  async next(matches: (r: ProviderRequest) => boolean, from = 0): Promise<ProviderRequest> {
    for (;;) {
      const found = this.requests.slice(from).find(matches);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      try {
        this.answer(req, Buffer.concat(chunks), res);
      } catch (e) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(e) } }));
      }
    });
  }

  private answer(req: IncomingMessage, raw: Buffer, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://double');
    const body = parse(raw);
    const route = `${req.method} ${url.pathname}`;
    const api = url.pathname.startsWith('/v1/chat')
      ? 'openai'
      : url.pathname.startsWith('/v1/messages')
        ? 'anthropic'
        : 'none';
    const main =
      body !== null &&
      ((route === 'POST /v1/messages' && isMainAnthropic(body)) ||
        (route === 'POST /v1/chat/completions' && isMainOpenAi(body)));
    const kind = main ? 'main' : api === 'none' ? 'other' : 'side';
    const request: ProviderRequest = {
      method: req.method ?? '?',
      path: req.url ?? '/',
      headers: req.headers,
      body,
      kind,
      api,
      at: performance.now(),
      answered: null,
    };
    res.once('finish', () => (request.answered = performance.now()));
    this.record(request);
    if (route === 'POST /v1/messages' && body !== null)
      return answerAnthropic(res, body, this.script);
    if (route === 'POST /v1/messages/count_tokens' && body !== null)
      return json(res, 200, countTokens(body));
    if (route === 'POST /v1/chat/completions' && body !== null)
      return answerOpenAi(res, body, this.script);
    if (req.method === 'HEAD' || route === 'GET /api/hello') return json(res, 200, { ok: true });
    if (route === 'GET /v1/models') return json(res, 200, { object: 'list', data: [] });
    json(res, 404, {
      type: 'error',
      error: { type: 'not_found_error', message: `the model-provider double has no ${route}` },
    });
  }

  private record(request: ProviderRequest): void {
    this.requests.push(request);
    const waiting = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiting) wake();
  }
}

function parse(raw: Buffer): Json | null {
  try {
    const v: unknown = JSON.parse(raw.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
  } catch {
    return null;
  }
}

function json(res: ServerResponse, status: number, body: Json): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
