import type { ApiKeyScope } from '@sessionboxer/domain/api-key';
import type { TokenAbility } from '@sessionboxer/domain/sandbox-token';
import type { KeyIdentity } from '../../api-keys';

/** A token is `sbt_<token id, 32 hex>_<secret>`, unlike an API key (`sbk_…`). */
export const TOKEN_PREFIX = 'sbt_';
export const TOKEN_PATTERN = /^sbt_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

/** Who a sandbox token is: one sandbox, what it may do there, and the key that minted it. */
export interface TokenIdentity {
  tokenId: string;
  orgId: string;
  /** The API key that minted it: revoking the key ends the token. */
  keyId: string;
  sandboxId: string;
  abilities: TokenAbility[];
  origins: string[];
  expiresAt: string;
  /** usedKey(via, ability) of the uses already recorded. */
  used: string[];
  /** The minting key's scopes, which the tools' handlers run under once tokenMay allows a call. */
  scopes: ApiKeyScope[];
}

/** Why a token was refused: 401 (it does not work) or 403 (it works, not from this Origin). */
export type TokenRefusalReason =
  'unknown' | 'expired' | 'key_revoked' | 'sandbox_deleted' | 'sandbox_has_secrets' | 'origin';

export type TokenAuth =
  | { ok: true; identity: TokenIdentity }
  | { ok: false; status: 401 | 403; reason: TokenRefusalReason; message: string };

/** Whether a bearer (with or without `Bearer `) is meant as a sandbox token, not an API key. */
export function isSandboxToken(bearer: string | undefined | null): boolean {
  return bearerText(bearer).startsWith(TOKEN_PREFIX);
}

export function bearerText(bearer: string | undefined | null): string {
  return (bearer ?? '').replace(/^Bearer\s+/i, '').trim();
}

/** The caller the tools' handlers see for a token's allowed call: its org and minting key. */
export function tokenCaller(identity: TokenIdentity): KeyIdentity {
  return { orgId: identity.orgId, keyId: identity.keyId, scopes: identity.scopes };
}
