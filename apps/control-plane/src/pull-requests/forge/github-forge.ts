import { z } from 'zod';
import { Forge, ForgeError, ForgeItem, ForgePr, PrRef, prId } from './forge.port';
import { GitHubHttp, RequestContext } from './github-http';

export interface GitHubForgeOptions {
  /** A token that may read pull requests and checks; without one only public repos answer. */
  token?: string | null;
  /** Default https://api.github.com; GitHub Enterprise: https://<host>/api/v3. */
  baseUrl?: string;
  /** Per request (each page is one request). Default 10 s. */
  timeoutMs?: number;
  userAgent?: string;
  /** Pages of 100 read per list at most. Default 10 (1,000 items of each kind). */
  maxPages?: number;
  fetch?: typeof fetch;
}

const user = z.object({ login: z.string() }).nullish();

const pullSchema = z.object({
  number: z.number(),
  html_url: z.string(),
  title: z.string(),
  state: z.enum(['open', 'closed']),
  merged_at: z.string().nullish(),
  head: z.object({ sha: z.string() }),
});

const reviewCommentSchema = z.object({
  id: z.number(),
  user,
  body: z.string().nullish(),
  path: z.string().nullish(),
  line: z.number().nullish(),
  original_line: z.number().nullish(),
  html_url: z.string().nullish(),
  created_at: z.string(),
});

const reviewSchema = z.object({
  id: z.number(),
  user,
  body: z.string().nullish(),
  state: z.string(),
  html_url: z.string().nullish(),
  submitted_at: z.string().nullish(),
});

const checkRunSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.string(),
  conclusion: z.string().nullish(),
  html_url: z.string().nullish(),
  details_url: z.string().nullish(),
  started_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  app: z.object({ slug: z.string().nullish() }).nullish(),
});

const checkRunsPageSchema = z.object({ check_runs: z.array(z.unknown()) });

/** The GitHub REST adapter of the forge port (https://docs.github.com/en/rest). */
export class GitHubForge implements Forge {
  private readonly http: GitHubHttp;
  private readonly maxPages: number;

  constructor(options: GitHubForgeOptions = {}) {
    this.http = new GitHubHttp({
      baseUrl: options.baseUrl ?? 'https://api.github.com',
      token: options.token ?? null,
      timeoutMs: options.timeoutMs ?? 10_000,
      userAgent: options.userAgent ?? 'sessionboxer-control-plane',
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    });
    this.maxPages = options.maxPages ?? 10;
  }

  async getPr(ref: PrRef): Promise<ForgePr> {
    const ctx = { what: prId(ref), missing: 'the PR does not exist or the token cannot see it' };
    const raw = await this.http.get(pullPath(ref), ctx);
    const pull = parse(pullSchema, raw, ctx);
    return {
      owner: ref.owner,
      repo: ref.repo,
      number: ref.number,
      url: pull.html_url,
      title: pull.title,
      state: pull.merged_at ? 'merged' : pull.state,
      headSha: pull.head.sha,
    };
  }

  /** Review comments, then reviews, then the check runs of the head commit. */
  async listItems(pr: ForgePr): Promise<ForgeItem[]> {
    const comments = await this.list(`${pullPath(pr)}/comments`, 'the review comments', pr);
    const reviews = await this.list(`${pullPath(pr)}/reviews`, 'the reviews', pr);
    const checks = await this.checkRuns(pr);
    return [
      ...comments.map((c) =>
        reviewCommentItem(parse(reviewCommentSchema, c, ctxOf('a review comment', pr))),
      ),
      ...reviews
        .map((r) => parse(reviewSchema, r, ctxOf('a review', pr)))
        .filter(
          (r) => r.state !== 'PENDING' && (r.state === 'CHANGES_REQUESTED' || !!r.body?.trim()),
        )
        .map(reviewItem),
      ...checks.map((c) => checkItem(parse(checkRunSchema, c, ctxOf('a check run', pr)))),
    ];
  }

  private list(path: string, what: string, pr: ForgePr): Promise<unknown[]> {
    const ctx = ctxOf(what, pr);
    return this.http.getPages(
      `${path}?per_page=100`,
      ctx,
      (page) => parse(z.array(z.unknown()), page, ctx),
      this.maxPages,
    );
  }

  private checkRuns(pr: ForgePr): Promise<unknown[]> {
    const sha = encodeURIComponent(pr.headSha);
    const ctx = {
      what: `the check runs of ${prId(pr)} (commit ${pr.headSha.slice(0, 12)})`,
      missing: 'the repository or the commit does not exist, or the token cannot see it',
    };
    const path = `/repos/${enc(pr.owner)}/${enc(pr.repo)}/commits/${sha}/check-runs?per_page=100`;
    return this.http.getPages(
      path,
      ctx,
      (page) => parse(checkRunsPageSchema, page, ctx).check_runs,
      this.maxPages,
    );
  }
}

function reviewCommentItem(c: z.infer<typeof reviewCommentSchema>): ForgeItem {
  return {
    id: `rc-${c.id}`,
    kind: 'review_comment',
    author: c.user?.login ?? null,
    body: c.body ?? '',
    path: c.path ?? null,
    line: c.line ?? c.original_line ?? null,
    conclusion: null,
    url: c.html_url ?? null,
    createdAt: c.created_at,
  };
}

/** A "request changes" without words still has to be seen: it gets a body that says so. */
function reviewItem(r: z.infer<typeof reviewSchema>): ForgeItem {
  const body = r.body?.trim() ? r.body : '(requested changes without a comment)';
  return {
    id: `rv-${r.id}`,
    kind: 'review',
    author: r.user?.login ?? null,
    body,
    path: null,
    line: null,
    conclusion: null,
    url: r.html_url ?? null,
    createdAt: r.submitted_at ?? '',
  };
}

function checkItem(c: z.infer<typeof checkRunSchema>): ForgeItem {
  return {
    id: `ck-${c.id}`,
    kind: 'check',
    author: c.app?.slug ?? null,
    body: c.name,
    path: null,
    line: null,
    conclusion: c.conclusion ?? c.status,
    url: c.html_url ?? c.details_url ?? null,
    createdAt: c.started_at ?? c.completed_at ?? '',
  };
}

function pullPath(ref: PrRef): string {
  return `/repos/${enc(ref.owner)}/${enc(ref.repo)}/pulls/${ref.number}`;
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

function ctxOf(what: string, pr: PrRef): RequestContext {
  return {
    what: `${what} of ${prId(pr)}`,
    missing: 'the PR does not exist or the token cannot see it',
  };
}

function parse<T>(schema: z.ZodType<T>, value: unknown, ctx: RequestContext): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue.path.length ? issue.path.join('.') : 'the body';
  throw new ForgeError(
    'BAD_RESPONSE',
    `GitHub's answer for ${ctx.what} is not what its API documents: ${where}: ${issue.message}`,
  );
}
