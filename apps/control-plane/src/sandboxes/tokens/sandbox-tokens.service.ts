import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  allows,
  apiKeyDecider,
  apiKeyStream,
  type ApiKeyEvent,
} from '@sessionboxer/domain/api-key';
import { ErrorCode, fold } from '@sessionboxer/domain/kernel';
import { refusal, sandboxStream, type SandboxCreated } from '@sessionboxer/domain/sandbox';
import {
  sandboxTokenDecider,
  sandboxTokenStream,
  tokenExpired,
  usedKey,
  type SandboxTokenEvent,
  type TokenAbility,
  type TokenVia,
} from '@sessionboxer/domain/sandbox-token';
import type { EventStore } from '@sessionboxer/event-store';
import type { KeyIdentity } from '../../api-keys';
import { Clock, IdGenerator } from '../../infrastructure/clock';
import { CommandBus } from '../../infrastructure/command-bus';
import { EVENT_STORE } from '../../infrastructure/tokens';
import { actorOf, Sandboxes } from '../sandboxes.service';
import {
  bearerText,
  TOKEN_PATTERN,
  TOKEN_PREFIX,
  type TokenAuth,
  type TokenIdentity,
  type TokenRefusalReason,
} from './token-identity';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
const no = (status: 401 | 403, reason: TokenRefusalReason, message: string): TokenAuth => ({
  ok: false,
  status,
  reason,
  message,
});

/**
 * Sandbox tokens (sandbox_create_token): shown once, recorded as the sha256 of their secret.
 * A token works while it has not expired, the key that minted it is not revoked, and its
 * sandbox is not deleted and names no secrets; each is read from its stream on every call.
 */
@Injectable()
export class SandboxTokens {
  constructor(
    private readonly bus: CommandBus,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly sandboxes: Sandboxes,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  /** sandbox_create_token: the answer is the only place the token ever appears. */
  async create(caller: KeyIdentity, args: Record<string, unknown>) {
    if (!allows(caller.scopes, 'sandboxes:write')) {
      throw refusal(
        'forbidden',
        ErrorCode.Forbidden,
        'a token needs an API key with sandboxes:write',
      );
    }
    const doc = this.sandboxes.resolve(caller, args.sandbox);
    const name = doc.settings?.name ?? doc.id;
    if (doc.status === 'deleted') {
      throw refusal('deleted', ErrorCode.InvalidState, `sandbox ${name} was deleted`);
    }
    const tokenId = this.ids.next();
    const secret = randomBytes(32).toString('base64url');
    const token = `${TOKEN_PREFIX}${tokenId.replace(/-/g, '')}_${secret}`;
    const { abilities, expires_in_seconds, origins } = args;
    const result = await this.bus.execute(sandboxTokenDecider, sandboxTokenStream(tokenId), {
      type: 'CreateSandboxToken',
      data: {
        tokenId,
        orgId: caller.orgId,
        sandboxId: doc.id,
        keyId: caller.keyId,
        hash: sha256(secret),
        sandboxSecrets: doc.settings?.secrets ?? [],
        args: { abilities, expires_in_seconds, origins },
      },
      metadata: this.bus.metadata(actorOf(caller)),
    });
    const made = result.state.token!;
    return {
      token,
      sandbox: doc.id,
      abilities: made.abilities,
      origins: made.origins,
      expires_at: made.expiresAt,
    };
  }

  /**
   * The token behind a bearer, checked against a browser's Origin (undefined: not a browser,
   * which works). Called on every request by the sandbox API's MCP and REST entry points and
   * by the watch page (sandboxes/watch/), so an expired token, a revoked key, a deleted
   * sandbox or one with secrets stops it at its next request.
   */
  async authenticate(
    bearer: string | undefined | null,
    origin: string | undefined,
  ): Promise<TokenAuth> {
    const m = TOKEN_PATTERN.exec(bearerText(bearer));
    if (m === null) return no(401, 'unknown', 'not a valid sandbox token');
    const state = await this.token(uuidOf(m[1]));
    const t = state.token;
    if (t === null || !sameHash(t.hash, sha256(m[2]))) {
      return no(401, 'unknown', 'not a valid sandbox token');
    }
    if (tokenExpired(t, this.clock.now().toISOString())) {
      return no(401, 'expired', `the token expired at ${t.expiresAt}`);
    }
    const scopes = await this.key(t.keyId);
    if (scopes === null) {
      return no(401, 'key_revoked', 'the API key that made this token was revoked');
    }
    const sandbox = await this.sandbox(t.sandboxId);
    if (sandbox.deleted) return no(401, 'sandbox_deleted', "the token's sandbox was deleted");
    if (sandbox.secrets.length > 0) {
      return no(
        401,
        'sandbox_has_secrets',
        "the token's sandbox has secrets: it cannot have a token",
      );
    }
    if (origin !== undefined && !t.origins.includes(origin.toLowerCase())) {
      const allowed = t.origins.length ? `only ${t.origins.join(', ')}` : 'no browser page';
      return no(403, 'origin', `Origin ${origin} may not use this token: it allows ${allowed}`);
    }
    const { tokenId, orgId, keyId, sandboxId, abilities, origins, expiresAt } = t;
    const identity = { tokenId, orgId, keyId, sandboxId, abilities, origins, expiresAt };
    return { ok: true, identity: { ...identity, used: state.used, scopes } };
  }

  /** Records a token's first use through `via` for `ability` (SandboxTokenUsed); later ones add nothing. */
  async used(identity: TokenIdentity, via: TokenVia, tool: string, ability: TokenAbility) {
    if (identity.used.includes(usedKey(via, ability))) return;
    await this.bus.execute(sandboxTokenDecider, sandboxTokenStream(identity.tokenId), {
      type: 'RecordSandboxTokenUsed',
      data: { tokenId: identity.tokenId, via, ability, tool },
      metadata: this.bus.metadata(
        actorOf({ orgId: identity.orgId, keyId: identity.keyId, scopes: [] }),
      ),
    });
  }

  private async token(tokenId: string) {
    const events = await this.store.readStream(sandboxTokenStream(tokenId));
    return fold(sandboxTokenDecider, events as unknown as SandboxTokenEvent[]);
  }

  /** The minting key's scopes, or null when it is revoked (or gone). */
  private async key(keyId: string) {
    const events = await this.store.readStream(apiKeyStream(keyId));
    const state = fold(apiKeyDecider, events as unknown as ApiKeyEvent[]);
    return state.key === null || state.revoked ? null : state.key.scopes;
  }

  /**
   * The sandbox's secrets and whether it was deleted, from its stream: its first event
   * (SandboxCreated, with the secrets' names) and its last (SandboxDestroyed ends a stream),
   * two reads of one event each however long the stream.
   */
  private async sandbox(sandboxId: string) {
    const stream = sandboxStream(sandboxId);
    const [first] = await this.store.readStream(stream, { maxCount: 1 });
    const [last] = await this.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    const created =
      first?.type === 'SandboxCreated' ? (first.data as SandboxCreated['data']) : null;
    return {
      deleted: created === null || last?.type === 'SandboxDestroyed',
      secrets: created?.secrets ?? [],
    };
  }
}

function sameHash(hex: string, other: string): boolean {
  const a = Buffer.from(hex, 'hex');
  const b = Buffer.from(other, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
