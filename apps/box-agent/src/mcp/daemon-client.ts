import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import { ErrorCode } from '@sessionboxer/domain';
import { z } from 'zod';

/**
 * Posts a tool call to the box's daemon, which forwards it to the control plane over the box's
 * socket and answers with the control plane's answer. Shared by the box's stdio MCP servers.
 * It never throws: a daemon that cannot be reached, is too slow or answers nonsense becomes an
 * `ok: false` answer whose message says so, which the server shows the model as a tool error.
 */

export type DaemonAnswer =
  { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

const daemonAnswer = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: z.string(), message: z.string() }),
  }),
]);

export interface DaemonClientOptions {
  /** The daemon's base URL, `http://127.0.0.1:7000` in a box. */
  baseUrl: string;
  /**
   * `/sessionboxer` for the sessionboxer tools, `/e2e` for the Auto QA ones, `/desktop` for what
   * the desktop server reports (a finished recording).
   */
  endpoint: 'sessionboxer' | 'e2e' | 'desktop' | 'relay';
  /**
   * Longer than the daemon's own bounds (waiting for its socket, then the bridge's 20 s), so
   * the daemon's answer, which says which bound was hit, arrives before this one.
   */
  timeoutMs?: number;
}

export const DAEMON_TIMEOUT_MS = 55_000;

function failed(message: string): DaemonAnswer {
  return { ok: false, error: { code: ErrorCode.Unavailable, message } };
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * The root cause of a failure, "connect ECONNREFUSED 127.0.0.1:7000" rather than fetch's "fetch
 * failed". Read by shape, not `instanceof`: fetch's errors come from Node's own realm.
 */
export function reason(e: unknown): string {
  let root = e;
  for (let depth = 0; depth < 5; depth++) {
    // Connecting to a name with several addresses fails with one error per address.
    const errors = field(root, 'errors');
    const next =
      field(root, 'cause') ?? (Array.isArray(errors) ? (errors[0] as unknown) : undefined);
    if (next === undefined) break;
    root = next;
  }
  const message = field(root, 'message');
  const code = field(root, 'code');
  if (typeof message === 'string' && message) return message;
  return typeof code === 'string' ? code : String(root);
}

function parseAnswer(body: string, status: number, where: string): DaemonAnswer {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const answer = daemonAnswer.safeParse(json);
  if (answer.success) {
    const data = answer.data;
    return data.ok ? { ok: true, result: data.result ?? null } : data;
  }
  const excerpt = body.length > 200 ? `${body.slice(0, 200)}…` : body;
  return failed(
    `the box's daemon at ${where} answered HTTP ${status} with something that is not ` +
      `a tool answer: ${JSON.stringify(excerpt)}`,
  );
}

/**
 * One connection kept open to the daemon: every call of the session goes to the same
 * 127.0.0.1:7000. Node closes an idle socket a second before the daemon's keep-alive timeout
 * (its Keep-Alive header) and unrefs it, so an idle server can still exit.
 */
const keepAlive = new http.Agent({ keepAlive: true });

class DaemonTimeout extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * A kept socket the daemon closed just as the call went out: sent again once, on a new one
 * (the same callId, so the daemon never runs it twice).
 */
function reusedSocketReset(e: unknown, req: http.ClientRequest): boolean {
  return req.reusedSocket && field(e, 'code') === 'ECONNRESET';
}

/**
 * POSTs `body` with node:http rather than fetch: on this path (one small JSON body to a
 * loopback port, once per tool call) fetch's machinery (streams, Headers, AbortSignal) cost
 * about 0.5 ms of each round trip. Rejects with a PostFailed: stage `request` before the
 * answer began, `response` while reading it; its cause is a DaemonTimeout past `timeoutMs`.
 */
function post(
  url: URL,
  body: string,
  timeoutMs: number,
  attempt = 1,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    let stage: 'request' | 'response' = 'request';
    const fail = (e: unknown) => {
      clearTimeout(timer);
      reject(new PostFailed(stage, e));
    };
    const req = http.request(url, {
      method: 'POST',
      agent: keepAlive,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const timer = setTimeout(() => req.destroy(new DaemonTimeout('timed out')), timeoutMs);
    req.on('error', (e) => {
      if (stage === 'request' && attempt === 1 && reusedSocketReset(e, req)) {
        clearTimeout(timer);
        post(url, body, timeoutMs, 2).then(resolve, reject);
      } else fail(e);
    });
    req.on('response', (res) => {
      stage = 'response';
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.on('aborted', () => fail(new Error('the answer was cut off')));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.end(body);
  });
}

/**
 * Where a post failed, and why: the cause as Node reported it (read by shape, it may come from
 * another realm).
 */
class PostFailed extends Error {
  constructor(
    readonly stage: 'request' | 'response',
    override readonly cause: unknown,
  ) {
    super(`the post failed at its ${stage}`);
  }
}

/** One call: `{ tool, args, callId }`, a fresh callId per call (the daemon keeps it on resends). */
export async function postToDaemon(
  options: DaemonClientOptions,
  tool: string,
  args: Record<string, unknown>,
): Promise<DaemonAnswer> {
  const where = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DAEMON_TIMEOUT_MS;
  const lost = (e: unknown, what: string): DaemonAnswer =>
    field(e, 'name') === 'TimeoutError'
      ? failed(`the box's daemon at ${where} did not answer within ${timeoutMs / 1000} s`)
      : failed(`the box's daemon at ${where} ${what}: ${reason(e)}`);
  const body = JSON.stringify({ tool, args, callId: randomUUID() });
  let url: URL;
  try {
    url = new URL(`${where}/${options.endpoint}`);
    if (url.protocol !== 'http:') throw new Error(`${url.protocol} is not http:`);
  } catch (e) {
    return lost(e, 'is unreachable');
  }
  let answer: { status: number; text: string };
  try {
    answer = await post(url, body, timeoutMs);
  } catch (e) {
    const failure = e instanceof PostFailed ? e : new PostFailed('request', e);
    const what = failure.stage === 'response' ? 'broke off its answer' : 'is unreachable';
    return lost(failure.cause, what);
  }
  return parseAnswer(answer.text, answer.status, where);
}
