import { exactId, integer, invalid } from '../kernel/validation';
import type { PrRef } from './pull-request.commands';

const CATEGORY = 'pr';
/** GitHub logins and organisations: letters, digits and hyphens, not first, at most 39. */
const OWNER = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/;
/** GitHub repository names: letters, digits, `_`, `.` and `-`, at most 100. */
const REPO = /^[A-Za-z0-9_.-]{1,100}$/;
/** What a session id may hold to sit in a PR's stream name; `_` separates the parts. */
const STREAM_SESSION_ID = /^[A-Za-z0-9.-]+$/;
const PR_ID = /^([^/\s]+)\/([^#\s]+)#(\d+)$/;

export function validOwner(value: unknown): string {
  if (typeof value !== 'string' || !OWNER.test(value)) {
    throw invalid(
      'owner',
      `owner must be a GitHub user or organisation: 1–39 letters, digits or hyphens, not starting with a hyphen (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

export function validRepo(value: unknown): string {
  if (typeof value !== 'string' || !REPO.test(value) || value === '.' || value === '..') {
    throw invalid(
      'repo',
      `repo must be a GitHub repository name: 1–100 letters, digits, "_", "." or "-" (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

export function validPrNumber(value: unknown): number {
  return integer(value, 'number', 1, Number.MAX_SAFE_INTEGER);
}

/** Checks every part of a PrRef and returns it as a fresh object (no extra fields). */
export function validPrRef(ref: Record<keyof PrRef, unknown>): PrRef {
  return {
    sessionId: exactId(ref.sessionId, 'sessionId'),
    owner: validOwner(ref.owner),
    repo: validRepo(ref.repo),
    number: validPrNumber(ref.number),
  };
}

/** `owner/repo#12`: how tools and read models name a PR (owner and repo as given). */
export function formatPrId(ref: Pick<PrRef, 'owner' | 'repo' | 'number'>): string {
  return `${ref.owner}/${ref.repo}#${ref.number}`;
}

/** The inverse of `formatPrId`, for a prId that a tool received. */
export function parsePrId(prId: string): Pick<PrRef, 'owner' | 'repo' | 'number'> {
  const match = PR_ID.exec(prId);
  if (match === null) {
    throw invalid('prId', `prId must look like owner/repo#12 (got ${JSON.stringify(prId)})`);
  }
  const [, owner, repo, number] = match;
  return { owner: validOwner(owner), repo: validRepo(repo), number: validPrNumber(Number(number)) };
}

/**
 * A key that is the same for every spelling of one PR: GitHub names are case-insensitive, so
 * `Acme/API#3` and `acme/api#3` are one PR, one stream and one read-model document.
 */
export function prKey(ref: Pick<PrRef, 'owner' | 'repo' | 'number'>): string {
  return formatPrId({ ...ref, owner: ref.owner.toLowerCase(), repo: ref.repo.toLowerCase() });
}

/**
 * `pr-<sessionId>_<owner>_<repo>_<number>`, owner and repo lower-cased. Everything after the
 * category is `[A-Za-z0-9_.-]`, and the parts stay apart: an owner has no `_`, the number is
 * last, and a session id must have none either (a UUID does not), else this refuses it.
 */
export function prStream(ref: PrRef): string {
  const { sessionId, owner, repo, number } = validPrRef(ref);
  if (!STREAM_SESSION_ID.test(sessionId)) {
    throw invalid(
      'sessionId',
      `a PR can only be attached to a session whose id is letters, digits, "." and "-" (got ${JSON.stringify(sessionId)})`,
    );
  }
  return `${CATEGORY}-${sessionId}_${owner.toLowerCase()}_${repo.toLowerCase()}_${number}`;
}
