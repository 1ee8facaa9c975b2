/**
 * The in-memory state of the GitHub test double (see github-double.ts) and the JSON it answers,
 * shaped like GitHub's REST API (https://docs.github.com/en/rest) answers, trimmed to the
 * fields a client plausibly reads.
 */

export interface PrKey {
  owner: string;
  repo: string;
  number: number;
}

export interface DoublePrInput extends PrKey {
  title?: string;
  state?: 'open' | 'closed';
  headSha?: string;
  author?: string;
}

export interface DoubleReviewCommentInput {
  id?: number;
  author?: string | null;
  body: string;
  path?: string;
  /** null for a comment on a line that is no longer in the diff (then `originalLine` counts). */
  line?: number | null;
  originalLine?: number | null;
  createdAt?: string;
}

export type DoubleReviewState =
  'COMMENTED' | 'APPROVED' | 'CHANGES_REQUESTED' | 'DISMISSED' | 'PENDING';

export interface DoubleReviewInput {
  id?: number;
  author?: string | null;
  body?: string;
  state?: DoubleReviewState;
  submittedAt?: string;
}

export interface DoubleCheckInput {
  id?: number;
  name: string;
  status?: 'queued' | 'in_progress' | 'completed';
  conclusion?: string | null;
  app?: string;
  startedAt?: string;
  /** The commit it runs on; default the PR's current head. */
  headSha?: string;
}

interface PullState {
  input: Required<Omit<DoublePrInput, 'headSha'>>;
  headSha: string;
  mergedAt: string | null;
  comments: Record<string, unknown>[];
  reviews: Record<string, unknown>[];
}

const T0 = '2024-05-01T12:00:00Z';

export class GitHubDoubleModel {
  private readonly pulls = new Map<string, PullState>();
  /** Check runs by `owner/repo@sha` (lower case), as GitHub keys them: by commit. */
  private readonly checks = new Map<string, Record<string, unknown>[]>();
  private nextId = 1000;

  addPr(input: DoublePrInput): void {
    this.pulls.set(keyOf(input), {
      input: {
        owner: input.owner,
        repo: input.repo,
        number: input.number,
        title: input.title ?? `PR ${input.number}`,
        state: input.state ?? 'open',
        author: input.author ?? 'octocat',
      },
      headSha: input.headSha ?? sha(input.number),
      mergedAt: null,
      comments: [],
      reviews: [],
    });
  }

  setMerged(pr: PrKey, mergedAt = T0): void {
    const pull = this.pull(pr);
    pull.mergedAt = mergedAt;
    pull.input.state = 'closed';
  }

  setState(pr: PrKey, state: 'open' | 'closed'): void {
    this.pull(pr).input.state = state;
  }

  setHeadSha(pr: PrKey, headSha: string): void {
    this.pull(pr).headSha = headSha;
  }

  addReviewComment(pr: PrKey, c: DoubleReviewCommentInput): number {
    const id = c.id ?? this.nextId++;
    const pull = this.pull(pr);
    pull.comments.push({
      id,
      node_id: `PRRC_${id}`,
      pull_request_review_id: null,
      user: c.author === null ? null : { login: c.author ?? 'reviewer', type: 'User' },
      body: c.body,
      path: c.path ?? 'src/index.ts',
      line: c.line === undefined ? 1 : c.line,
      original_line: c.originalLine === undefined ? (c.line ?? 1) : c.originalLine,
      commit_id: pull.headSha,
      html_url: `${pageOf(pr)}#discussion_r${id}`,
      created_at: c.createdAt ?? T0,
      updated_at: c.createdAt ?? T0,
    });
    return id;
  }

  addReview(pr: PrKey, r: DoubleReviewInput): number {
    const id = r.id ?? this.nextId++;
    const pull = this.pull(pr);
    const state = r.state ?? 'COMMENTED';
    pull.reviews.push({
      id,
      node_id: `PRR_${id}`,
      user: r.author === null ? null : { login: r.author ?? 'reviewer', type: 'User' },
      body: r.body ?? '',
      state,
      commit_id: pull.headSha,
      html_url: `${pageOf(pr)}#pullrequestreview-${id}`,
      ...(state === 'PENDING' ? {} : { submitted_at: r.submittedAt ?? T0 }),
    });
    return id;
  }

  /** Adds the check, or replaces the one of that name on that commit (keeping its id). */
  setCheck(pr: PrKey, c: DoubleCheckInput): number {
    const headSha = c.headSha ?? this.pull(pr).headSha;
    const key = `${pr.owner}/${pr.repo}@${headSha}`.toLowerCase();
    const runs = this.checks.get(key) ?? [];
    const existing = runs.findIndex((r) => r.name === c.name);
    const id = c.id ?? (existing >= 0 ? (runs[existing].id as number) : this.nextId++);
    const status = c.status ?? (c.conclusion ? 'completed' : 'queued');
    const run = {
      id,
      name: c.name,
      head_sha: headSha,
      status,
      conclusion: status === 'completed' ? (c.conclusion ?? 'success') : null,
      html_url: `https://github.com/${pr.owner}/${pr.repo}/runs/${id}`,
      details_url: `https://ci.example.com/runs/${id}`,
      started_at: c.startedAt ?? T0,
      completed_at: status === 'completed' ? (c.startedAt ?? T0) : null,
      app: { slug: c.app ?? 'github-actions', name: 'GitHub Actions' },
    };
    if (existing >= 0) runs[existing] = run;
    else runs.push(run);
    this.checks.set(key, runs);
    return id;
  }

  /** GitHub's JSON of the PR, or undefined when there is none. */
  pullJson(pr: PrKey): Record<string, unknown> | undefined {
    const pull = this.pulls.get(keyOf(pr));
    if (!pull) return undefined;
    const { input } = pull;
    return {
      id: input.number + 9_000_000,
      number: input.number,
      html_url: pageOf(input),
      url: `https://api.github.com/repos/${input.owner}/${input.repo}/pulls/${input.number}`,
      title: input.title,
      state: input.state,
      draft: false,
      merged: pull.mergedAt !== null,
      merged_at: pull.mergedAt,
      closed_at: input.state === 'closed' ? (pull.mergedAt ?? T0) : null,
      user: { login: input.author, type: 'User' },
      head: { ref: `feature-${input.number}`, sha: pull.headSha },
      base: { ref: 'main', repo: { name: input.repo, owner: { login: input.owner } } },
    };
  }

  comments(pr: PrKey): Record<string, unknown>[] | undefined {
    return this.pulls.get(keyOf(pr))?.comments;
  }

  reviews(pr: PrKey): Record<string, unknown>[] | undefined {
    return this.pulls.get(keyOf(pr))?.reviews;
  }

  checkRuns(owner: string, repo: string, headSha: string): Record<string, unknown>[] {
    return this.checks.get(`${owner}/${repo}@${headSha}`.toLowerCase()) ?? [];
  }

  hasRepo(owner: string, repo: string): boolean {
    const prefix = `${owner}/${repo}#`.toLowerCase();
    return [...this.pulls.keys()].some((k) => k.startsWith(prefix));
  }

  private pull(pr: PrKey): PullState {
    const pull = this.pulls.get(keyOf(pr));
    if (!pull) throw new Error(`GitHub double: no PR ${keyOf(pr)}; addPr it first`);
    return pull;
  }
}

/** GitHub's names are case-insensitive in URLs. */
function keyOf(pr: PrKey): string {
  return `${pr.owner}/${pr.repo}#${pr.number}`.toLowerCase();
}

function pageOf(pr: PrKey): string {
  return `https://github.com/${pr.owner}/${pr.repo}/pull/${pr.number}`;
}

function sha(n: number): string {
  return n.toString(16).padStart(40, 'a');
}
