import { ForgeError } from './forge.port';

/**
 * GET requests to the GitHub REST API: headers, timeout, Link-header pagination and the mapping
 * of every failure onto a `ForgeError` whose message says why. The token goes into the
 * Authorization header and nowhere else: every message is scrubbed of it before it leaves.
 */
export interface GitHubHttpOptions {
  baseUrl: string;
  token: string | null;
  timeoutMs: number;
  userAgent: string;
  fetch: typeof fetch;
}

/** What is being read, for messages: "octo/app#12" and what a 404 means for it. */
export interface RequestContext {
  what: string;
  missing: string;
}

export class GitHubHttp {
  private readonly base: URL;

  constructor(private readonly options: GitHubHttpOptions) {
    this.base = new URL(options.baseUrl.replace(/\/+$/, '') + '/');
  }

  /** One JSON document. */
  async get(path: string, ctx: RequestContext): Promise<unknown> {
    return (await this.request(this.urlOf(path), ctx)).body;
  }

  /** Every page of a list, following `rel="next"` links, at most `maxPages` pages. */
  async getPages<T>(
    path: string,
    ctx: RequestContext,
    extract: (page: unknown) => T[],
    maxPages: number,
  ): Promise<T[]> {
    const all: T[] = [];
    let url: URL | null = this.urlOf(path);
    for (let page = 0; url && page < maxPages; page++) {
      const { body, next } = await this.request(url, ctx);
      all.push(...extract(body));
      url = next === null ? null : this.sameOrigin(next, ctx);
    }
    return all;
  }

  private urlOf(path: string): URL {
    return new URL(path.replace(/^\/+/, ''), this.base);
  }

  /** A next-page link elsewhere would carry the token to another host: refuse it. */
  private sameOrigin(link: string, ctx: RequestContext): URL {
    let url: URL | null = null;
    try {
      url = new URL(link, this.base);
    } catch {
      url = null;
    }
    if (!url || url.origin !== this.base.origin) {
      throw new ForgeError(
        'BAD_RESPONSE',
        this.scrub(`GitHub's next-page link for ${ctx.what} does not point to ${this.base.origin}`),
      );
    }
    return url;
  }

  private async request(
    url: URL,
    ctx: RequestContext,
  ): Promise<{ body: unknown; next: string | null }> {
    const res = await this.send(url, ctx);
    const text = await this.readText(res, ctx);
    if (!res.ok) throw this.errorFor(res, text, ctx);
    try {
      return { body: JSON.parse(text) as unknown, next: nextLink(res.headers.get('link')) };
    } catch {
      throw new ForgeError(
        'BAD_RESPONSE',
        this.scrub(`GitHub's answer for ${ctx.what} is not JSON: ${snippet(text)}`),
        { status: res.status },
      );
    }
  }

  private async send(url: URL, ctx: RequestContext): Promise<Response> {
    const headers: Record<string, string> = {
      Accept: 'application/vnd.github+json',
      'X-GitHub-Api-Version': '2022-11-28',
      'User-Agent': this.options.userAgent,
    };
    if (this.options.token) headers.Authorization = `Bearer ${this.options.token}`;
    try {
      return await this.options.fetch(url, {
        headers,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (e) {
      throw this.unreachable(e, ctx);
    }
  }

  private async readText(res: Response, ctx: RequestContext): Promise<string> {
    try {
      return await res.text();
    } catch (e) {
      throw this.unreachable(e, ctx);
    }
  }

  private unreachable(e: unknown, ctx: RequestContext): ForgeError {
    const name = errorLike(e)?.name;
    const why =
      name === 'TimeoutError' || name === 'AbortError'
        ? `GitHub did not answer within ${this.options.timeoutMs} ms`
        : `could not reach GitHub at ${this.base.origin} (${causeOf(e)})`;
    return new ForgeError('UNAVAILABLE', this.scrub(`Reading ${ctx.what}: ${why}`));
  }

  private errorFor(res: Response, text: string, ctx: RequestContext): ForgeError {
    const says = githubMessage(text);
    const tail = says ? ` (GitHub says: "${says}")` : '';
    const status = res.status;
    const fail = (code: ForgeError['code'], why: string, retryAt?: Date) =>
      new ForgeError(code, this.scrub(`GitHub answered ${status} for ${ctx.what}: ${why}${tail}`), {
        status,
        retryAt,
      });
    if (status === 403 || status === 429) {
      const retryAt = rateLimitReset(res.headers, status, says);
      if (retryAt) {
        return fail(
          'RATE_LIMITED',
          `rate limit reached; it resets at ${retryAt.toISOString()}`,
          retryAt,
        );
      }
    }
    if (status === 401) return fail('UNAUTHORIZED', 'the token is missing, wrong or expired');
    if (status === 403) {
      return fail(
        'UNAUTHORIZED',
        'the token may not read it (it needs read access to pull requests and checks)',
      );
    }
    if (status === 404) return fail('NOT_FOUND', ctx.missing);
    if (status >= 500) return fail('UNAVAILABLE', 'GitHub is failing; try again later');
    return fail('BAD_RESPONSE', 'an answer the adapter does not expect');
  }

  private scrub(message: string): string {
    const token = this.options.token;
    return token ? message.split(token).join('[token]') : message;
  }
}

/** GitHub's documented order: Retry-After, then an exhausted primary limit, else one minute. */
export function rateLimitReset(headers: Headers, status: number, says: string): Date | null {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) {
    return new Date(Date.now() + Number(retryAfter) * 1000);
  }
  if (headers.get('x-ratelimit-remaining') === '0') {
    const reset = Number(headers.get('x-ratelimit-reset'));
    return reset > 0 ? new Date(reset * 1000) : new Date(Date.now() + 60_000);
  }
  if (status === 429 || /rate limit/i.test(says)) return new Date(Date.now() + 60_000);
  return null;
}

/** The `rel="next"` target of a Link header, if any. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const m of header.matchAll(/<([^>]*)>\s*;\s*rel="([^"]*)"/g)) {
    if (m[2].split(/\s+/).includes('next')) return m[1];
  }
  return null;
}

function githubMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' && body.message.trim() ? snippet(body.message) : '';
  } catch {
    return '';
  }
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat || '(empty)';
}

/** Errors from fetch come from Node's own realm: duck-typed, never `instanceof Error`. */
interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
}

function errorLike(e: unknown): ErrorLike | null {
  return typeof e === 'object' && e !== null ? e : null;
}

/** `ECONNREFUSED`, `ENOTFOUND`… when the cause has a code, else the most precise message. */
function causeOf(e: unknown): string {
  const cause = errorLike(errorLike(e)?.cause);
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  const message = errorLike(e)?.message;
  return typeof message === 'string' ? message : String(e);
}
