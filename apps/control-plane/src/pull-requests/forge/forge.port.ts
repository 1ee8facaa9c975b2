import type { PrItemInput } from '@sessionboxer/domain';
/**
 * The forge port: what the control plane needs from the place pull requests live (GitHub).
 * `pr_attach`, `pr_list`, `pr_items` and the PRs pane are built on `getPr` and `listItems`;
 * `PrSummary` / `PrItem` of the MCP port are derived from `ForgePr` / `ForgeItem`.
 */

/** A pull request by name: `owner/repo#number`. */
export interface PrRef {
  owner: string;
  repo: string;
  number: number;
}

export interface ForgePr extends PrRef {
  /** The PR's page, e.g. https://github.com/owner/repo/pull/12. */
  url: string;
  title: string;
  state: 'open' | 'closed' | 'merged';
  /** The commit the checks are reported on. */
  headSha: string;
}

/**
 * An item of a PR as the forge reports it: the domain's PrItemInput. Ids are stable across
 * polls: `rc-<id>` review comment, `rv-<id>` review, `ck-<id>` check run.
 */
export type ForgeItem = PrItemInput;

export interface Forge {
  getPr(ref: PrRef): Promise<ForgePr>;
  listItems(pr: ForgePr): Promise<ForgeItem[]>;
}

export type ForgeErrorCode =
  'NOT_FOUND' | 'UNAUTHORIZED' | 'RATE_LIMITED' | 'UNAVAILABLE' | 'BAD_RESPONSE';

export interface ForgeErrorDetails {
  /** The HTTP status GitHub answered, when it answered. */
  status?: number;
  /** RATE_LIMITED: when the limit resets and calls may start again. */
  retryAt?: Date;
  cause?: unknown;
}

/** A refusal or failure of the forge, with a message that says why (never the token). */
export class ForgeError extends Error {
  override readonly name = 'ForgeError';
  readonly status: number | null;
  readonly retryAt: Date | null;

  constructor(
    readonly code: ForgeErrorCode,
    message: string,
    details: ForgeErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status ?? null;
    this.retryAt = details.retryAt ?? null;
  }
}

/** A PR URL or id that is not one: the message says which part is wrong. */
export class InvalidPrRefError extends Error {
  override readonly name = 'InvalidPrRefError';
}

/** `owner/repo#number`: the id `pr_items` and `pr_mark_addressed` take. */
export function prId(ref: PrRef): string {
  return `${ref.owner}/${ref.repo}#${ref.number}`;
}

/** GitHub user and organisation names: 1-39 letters, digits and inner hyphens. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/;
/** Repository names: 1-100 letters, digits, `.`, `_`, `-`, but not `.` or `..`. */
const REPO = /^[A-Za-z0-9._-]{1,100}$/;
const NUMBER = /^[1-9][0-9]{0,9}$/;

export function isValidOwner(owner: string): boolean {
  return OWNER.test(owner);
}

export function isValidRepo(repo: string): boolean {
  return REPO.test(repo) && repo !== '.' && repo !== '..' && !repo.endsWith('.git');
}

/** The ref of `owner`, `repo`, `number` as they come, or the reason they are not one. */
export function checkPrRef(owner: string, repo: string, number: string): PrRef {
  if (!isValidOwner(owner)) {
    throw new InvalidPrRefError(
      `"${owner}" is not a GitHub owner name (1-39 letters, digits or inner single hyphens)`,
    );
  }
  if (!isValidRepo(repo)) {
    throw new InvalidPrRefError(
      `"${repo}" is not a GitHub repository name (1-100 letters, digits, ".", "_" or "-")`,
    );
  }
  if (!NUMBER.test(number) || Number(number) > 2_147_483_647) {
    throw new InvalidPrRefError(`"${number}" is not a pull request number`);
  }
  return { owner, repo, number: Number(number) };
}

/** The inverse of `prId`: `owner/repo#12` → { owner, repo, number: 12 }. */
export function parsePrId(id: string): PrRef {
  const m = /^([^/#\s]+)\/([^/#\s]+)#([^/#\s]+)$/.exec(id.trim());
  if (!m) throw new InvalidPrRefError(`"${id}" is not a PR id of the form owner/repo#number`);
  return checkPrRef(m[1], m[2], m[3]);
}

/**
 * `https://github.com/<owner>/<repo>/pull/<n>` → { owner, repo, number }. Also takes what a
 * person copies from the PR's tabs (`/files`, `/commits`, `/checks`), a query or a fragment.
 */
export function parsePrUrl(url: string): PrRef {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw new InvalidPrRefError(`"${url}" is not a URL`);
  }
  if (u.protocol !== 'https:') {
    throw new InvalidPrRefError(`"${url}" is not an https:// URL`);
  }
  if (u.hostname !== 'github.com' && u.hostname !== 'www.github.com') {
    throw new InvalidPrRefError(`"${url}" is not on github.com`);
  }
  if (u.port !== '' || u.username !== '' || u.password !== '') {
    throw new InvalidPrRefError(`"${url}" carries a port or credentials`);
  }
  const parts = u.pathname.split('/').slice(1);
  if (parts.length < 4 || parts[2] !== 'pull' || parts[3] === '') {
    throw new InvalidPrRefError(
      `"${url}" is not a pull request URL (https://github.com/<owner>/<repo>/pull/<number>)`,
    );
  }
  return checkPrRef(parts[0], parts[1], parts[3]);
}
