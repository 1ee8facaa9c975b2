import { IncomingMessage, Server, ServerResponse, STATUS_CODES, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import {
  DoubleCheckInput,
  DoublePrInput,
  DoubleReviewCommentInput,
  DoubleReviewInput,
  GitHubDoubleModel,
  PrKey,
} from './github-double.model';

export * from './github-double.model';

/** A request the double received, for tests that check what the client sent. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/repos/o/r/pulls/1/comments?per_page=100&page=2`. */
  path: string;
  headers: Record<string, string | undefined>;
}

interface Canned {
  status: number;
  headers: Record<string, string>;
  body: string;
  match?: RegExp;
}

/**
 * A TEST DOUBLE OF GITHUB: a real HTTP server on 127.0.0.1 (a free port) that speaks the part
 * of GitHub's REST API the forge adapter calls, over an in-memory model the test drives. It
 * exists because GitHub cannot be reached from the machines the tests run on; it is not GitHub,
 * and a test passing against it proves the adapter against GitHub's documented behaviour only.
 *
 * Endpoints (GET): `/repos/{o}/{r}/pulls/{n}`, `/repos/{o}/{r}/pulls/{n}/comments`,
 * `/repos/{o}/{r}/pulls/{n}/reviews`, `/repos/{o}/{r}/commits/{sha}/check-runs`. Lists are paged
 * like GitHub's (`per_page` default 30, at most 100; `page`; a Link header with first / prev /
 * next / last when there is more than one page). With `requireToken`, a request without
 * `Authorization: Bearer <token>` (or `token <token>`) is answered 401 "Bad credentials".
 */
export class GitHubDouble {
  readonly requests: RecordedRequest[] = [];
  private readonly model = new GitHubDoubleModel();
  private readonly canned: Canned[] = [];
  private readonly delays: number[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private token: string | null = null;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<GitHubDouble> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const double = new GitHubDouble(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => double.handle(req, res));
    return double;
  }

  /** Every request must then carry this token; null: any or none is accepted. */
  requireToken(token: string | null): void {
    this.token = token;
  }

  addPr(input: DoublePrInput): PrKey {
    this.model.addPr(input);
    return { owner: input.owner, repo: input.repo, number: input.number };
  }

  addReviewComment(pr: PrKey, comment: DoubleReviewCommentInput): number {
    return this.model.addReviewComment(pr, comment);
  }

  addReview(pr: PrKey, review: DoubleReviewInput): number {
    return this.model.addReview(pr, review);
  }

  setCheck(pr: PrKey, check: DoubleCheckInput): number {
    return this.model.setCheck(pr, check);
  }

  setMerged(pr: PrKey, mergedAt?: string): void {
    this.model.setMerged(pr, mergedAt);
  }

  setState(pr: PrKey, state: 'open' | 'closed'): void {
    this.model.setState(pr, state);
  }

  setHeadSha(pr: PrKey, headSha: string): void {
    this.model.setHeadSha(pr, headSha);
  }

  /**
   * The next request (whose path and query match `match`, if given) is answered so instead;
   * several calls queue up, each used once.
   */
  failNext(
    status: number,
    headers: Record<string, string> = {},
    body?: string,
    match?: RegExp,
  ): void {
    const message = STATUS_CODES[status] ?? 'Error';
    this.canned.push({
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body: body ?? JSON.stringify({ message, documentation_url: DOCS }),
      match,
    });
  }

  /** The next request is answered only after `ms` (to exercise client timeouts). */
  delayNext(ms: number): void {
    this.delays.push(ms);
  }

  async close(): Promise<void> {
    this.timers.forEach((t) => clearTimeout(t));
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = req.url ?? '/';
    this.requests.push({
      method: req.method ?? 'GET',
      path,
      headers: {
        authorization: req.headers.authorization,
        accept: req.headers.accept,
        'x-github-api-version': header(req, 'x-github-api-version'),
        'user-agent': req.headers['user-agent'],
      },
    });
    const delay = this.delays.shift();
    if (delay === undefined) return this.answer(req, res);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!res.destroyed && !req.socket.destroyed) this.answer(req, res);
    }, delay);
    this.timers.add(timer);
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const i = this.canned.findIndex((c) => !c.match || c.match.test(req.url ?? ''));
    if (i >= 0) {
      const [canned] = this.canned.splice(i, 1);
      return send(res, canned.status, canned.body, canned.headers);
    }
    if (this.token !== null && !this.authorized(req.headers.authorization)) {
      return json(res, 401, { message: 'Bad credentials', documentation_url: DOCS });
    }
    const url = new URL(req.url ?? '/', this.url);
    const found = req.method === 'GET' ? this.route(url) : undefined;
    if (found === undefined)
      return json(res, 404, { message: 'Not Found', documentation_url: DOCS });
    if (!Array.isArray(found.body)) return json(res, 200, found.body);
    this.page(res, url, found.body, found.wrap);
  }

  private authorized(value: string | undefined): boolean {
    return value === `Bearer ${this.token}` || value === `token ${this.token}`;
  }

  private route(url: URL): Found | undefined {
    const p = url.pathname.split('/').map(decodeSegment);
    if (p[1] !== 'repos' || p.length < 6) return undefined;
    const [owner, repo] = [p[2], p[3]];
    if (p[4] === 'pulls' && /^\d+$/.test(p[5])) {
      const pr = { owner, repo, number: Number(p[5]) };
      if (p.length === 6) return wrapped(this.model.pullJson(pr));
      if (p.length === 7 && p[6] === 'comments') return wrapped(this.model.comments(pr));
      if (p.length === 7 && p[6] === 'reviews') return wrapped(this.model.reviews(pr));
      return undefined;
    }
    if (p[4] === 'commits' && p.length === 7 && p[6] === 'check-runs') {
      if (!this.model.hasRepo(owner, repo)) return undefined;
      const runs = this.model.checkRuns(owner, repo, p[5]);
      return { body: runs, wrap: (page) => ({ total_count: runs.length, check_runs: page }) };
    }
    return undefined;
  }

  private page(
    res: ServerResponse,
    url: URL,
    all: unknown[],
    wrap: (items: unknown[]) => unknown = (items) => items,
  ): void {
    const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page')) || 30));
    const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const items = all.slice((page - 1) * perPage, page * perPage);
    const linkTo = (n: number) => {
      const u = new URL(url);
      u.searchParams.set('per_page', String(perPage));
      u.searchParams.set('page', String(n));
      return `<${u.toString()}>`;
    };
    const links: string[] = [];
    if (page > 1) links.push(`${linkTo(page - 1)}; rel="prev"`);
    if (page < last) links.push(`${linkTo(page + 1)}; rel="next"`, `${linkTo(last)}; rel="last"`);
    if (page > 1) links.push(`${linkTo(1)}; rel="first"`);
    json(res, 200, wrap(items), links.length ? { link: links.join(', ') } : {});
  }
}

const DOCS = 'https://docs.github.com/rest';

interface Found {
  body: unknown;
  /** How a page of a list is answered: the page itself, or an object holding it. */
  wrap?: (items: unknown[]) => unknown;
}

function wrapped(value: unknown): Found | undefined {
  return value === undefined ? undefined : { body: value };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function json(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  send(res, status, JSON.stringify(body), {
    'content-type': 'application/json; charset=utf-8',
    ...headers,
  });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string>) {
  res.writeHead(status, {
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4999',
    ...headers,
  });
  res.end(body);
}
