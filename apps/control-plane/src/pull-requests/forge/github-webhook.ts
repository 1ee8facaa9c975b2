import { createHmac, timingSafeEqual } from 'node:crypto';
import { PrRef, checkPrRef } from './forge.port';

/**
 * GitHub webhooks (https://docs.github.com/en/webhooks): the signature check of a delivery and
 * the pull request it is about. A verified delivery only says "look again": the poller reads
 * the PR through the API, so nothing in a payload is trusted beyond the PR's name.
 */

/**
 * Whether `header` (X-Hub-Signature-256: `sha256=<hex>`) is the HMAC-SHA256 of the raw body
 * under `secret`. False on an empty secret, a missing or malformed header, or a mismatch; the
 * comparison takes the same time whatever the bytes.
 */
export function verifyGitHubSignature(
  secret: string,
  rawBody: Buffer,
  header: string | undefined,
): boolean {
  if (!secret || typeof header !== 'string') return false;
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!m) return false;
  const given = Buffer.from(m[1], 'hex');
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The PR a delivery is about (the first, for a check run on several), or null. */
export function webhookPrRef(eventName: string | undefined, payload: unknown): PrRef | null {
  return webhookPrRefs(eventName, payload)[0] ?? null;
}

/**
 * Every PR a delivery is about: one for `pull_request`, `pull_request_review` and
 * `pull_request_review_comment`; those of `check_run.pull_requests` for `check_run` (GitHub
 * leaves that list empty for PRs from forks); none for any other event or an odd payload.
 */
export function webhookPrRefs(eventName: string | undefined, payload: unknown): PrRef[] {
  const repo = repositoryOf(payload);
  switch (eventName ?? '') {
    case 'pull_request':
    case 'pull_request_review':
    case 'pull_request_review_comment': {
      const number = field(field(payload, 'pull_request'), 'number');
      const ref = repo && refOf(repo.owner, repo.name, number);
      return ref ? [ref] : [];
    }
    case 'check_run': {
      const prs = field(field(payload, 'check_run'), 'pull_requests');
      if (!Array.isArray(prs)) return [];
      return prs.map((pr) => checkRunPrRef(pr, repo)).filter((r): r is PrRef => r !== null);
    }
    default:
      return [];
  }
}

interface RepoName {
  owner: unknown;
  name: unknown;
}

function repositoryOf(payload: unknown): RepoName | null {
  const repository = field(payload, 'repository');
  if (!repository) return null;
  return { owner: field(field(repository, 'owner'), 'login'), name: field(repository, 'name') };
}

/** Its API url names the PR's repository; the delivery's repository is the fallback. */
function checkRunPrRef(pr: unknown, repo: RepoName | null): PrRef | null {
  const number = field(pr, 'number');
  const url = field(pr, 'url');
  const m = typeof url === 'string' ? /\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/.exec(url) : null;
  if (m) return refOf(m[1], m[2], m[3]);
  return repo ? refOf(repo.owner, repo.name, number) : null;
}

function refOf(owner: unknown, name: unknown, number: unknown): PrRef | null {
  if (typeof owner !== 'string' || typeof name !== 'string') return null;
  if (typeof number !== 'number' && typeof number !== 'string') return null;
  try {
    return checkPrRef(owner, name, String(number));
  } catch {
    return null;
  }
}

function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}
