import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Actor } from '@sessionboxer/domain/kernel';
import type { ApiKeyScope } from '@sessionboxer/domain/api-key';

/**
 * A `sessionboxer login` request (docs/SANDBOXES.md, "Signing the CLI in"): the CLI asks for
 * one, a signed-in person approves or denies it on the web UI's page, the CLI polls with its
 * secret and receives a new key once. Pending requests live in the shared state (every
 * instance sees them); none is ever an event. Only the key made at the end is one.
 */

export const LOGIN_TTL_MS = 10 * 60 * 1000;
export const LOGIN_SCOPES: ApiKeyScope[] = ['sandboxes:read', 'sandboxes:write'];
/** How often the CLI is told to poll. */
export const POLL_INTERVAL_SECONDS = 1;
export const CLIENT_MAX_LENGTH = 80;

export interface LoginRequest {
  requestId: string;
  /** Shown by the CLI and on the page, for the person to compare. */
  userCode: string;
  orgId: string;
  /** What the CLI said it is (its host name), shown on the page and in the key's name. */
  client: string;
  /** sha256 of the poll secret only the CLI has. */
  pollHash: string;
  createdAt: string;
  expiresAt: string;
}

/** The first decision on a request; a later one is refused. */
export interface LoginDecision {
  decision: 'approved' | 'denied';
  actor: Actor;
  at: string;
}

export const keys = {
  request: (id: string) => `cli-login:request:${id}`,
  poll: (hash: string) => `cli-login:poll:${hash}`,
  decision: (id: string) => `cli-login:decision:${id}`,
  handedOut: (id: string) => `cli-login:handed-out:${id}`,
  throttle: (ip: string) => `cli-login:throttle:${ip}`,
};

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** No vowels (no words), no 0/O, 1/I look-alikes: XXXX-XXXX. */
const CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ23456789';

export function userCode(): string {
  const pick = () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  const part = () => Array.from({ length: 4 }, pick).join('');
  return `${part()}-${part()}`;
}

export function pollSecret(): string {
  return `sbl_${randomBytes(32).toString('base64url')}`;
}

/** A client name as it may be shown: printable, short; `CLI` when none was given. */
export function clientName(raw: unknown): string {
  if (typeof raw !== 'string') return 'CLI';
  const clean = raw
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, CLIENT_MAX_LENGTH);
  return clean === '' ? 'CLI' : clean;
}

export function parseJson<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
