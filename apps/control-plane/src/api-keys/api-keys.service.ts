import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  apiKeyDecider,
  apiKeyStream,
  type ApiKeyEvent,
  type ApiKeyScope,
} from '@sessionboxer/domain/api-key';
import { ErrorCode, fold, type Actor } from '@sessionboxer/domain/kernel';
import { DEFAULT_ORG_ID, DEFAULT_ORG_NAME, orgDecider, orgStream } from '@sessionboxer/domain/org';
import { refusal } from '@sessionboxer/domain/sandbox';
import type { EventStore } from '@sessionboxer/event-store';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { apiKeyQueries, type ApiKeyDoc } from '@sessionboxer/projections/api-keys.projection';
import { IdGenerator } from '../infrastructure/clock';
import { CommandBus } from '../infrastructure/command-bus';
import { EVENT_STORE, READ_MODELS } from '../infrastructure/tokens';

/** Who an API key is: its org and what it may do. From the connection, never the payload. */
export interface KeyIdentity {
  orgId: string;
  keyId: string;
  scopes: ApiKeyScope[];
}

const PREFIX = 'sbk_';
const TOKEN = /^sbk_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
const SYSTEM: Actor = { kind: 'system', id: 'api-keys' };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * Orgs and their API keys. A key is `sbk_<key id>_<secret>`: shown once, recorded only as its
 * sha256. `authenticate` reads the key's own stream on every call, so a revoked key stops at
 * once, on a connection already open too. The terminal MCP accepts the same keys through it.
 */
@Injectable()
export class ApiKeys {
  constructor(
    private readonly bus: CommandBus,
    private readonly ids: IdGenerator,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  async createOrg(
    orgId: string,
    name: unknown,
    actor: Actor,
    key?: string,
  ): Promise<{ orgId: string; name: string }> {
    const metadata = this.bus.metadata(actor, key);
    const result = await this.bus.execute(orgDecider, orgStream(orgId), {
      type: 'CreateOrg',
      data: { orgId, name },
      metadata,
    });
    return { orgId, name: result.state.name ?? '' };
  }

  /**
   * The installation starts with one org, the default: it exists from the start and is recorded
   * (OrgCreated) the first time it is used, so an installation that never uses the sandbox API
   * has nothing of it in its history. Concurrent first uses record it once (one command key).
   */
  async orgExists(orgId: string): Promise<boolean> {
    const events = await this.store.readStream(orgStream(orgId));
    if (events.length > 0) return true;
    if (orgId !== DEFAULT_ORG_ID) return false;
    await this.createOrg(DEFAULT_ORG_ID, DEFAULT_ORG_NAME, SYSTEM, 'default-org');
    return true;
  }

  /** Makes a key; the answer is the only place the key itself ever appears. */
  async create(orgId: string, name: unknown, scopes: unknown, actor: Actor) {
    if (!(await this.orgExists(orgId))) {
      throw refusal('not_found', ErrorCode.NotFound, `there is no org ${orgId}`);
    }
    const keyId = this.ids.next();
    const key = `${PREFIX}${keyId.replace(/-/g, '')}_${randomBytes(32).toString('base64url')}`;
    const prefix = key.slice(0, 12);
    const result = await this.bus.execute(apiKeyDecider, apiKeyStream(keyId), {
      type: 'CreateApiKey',
      data: { keyId, orgId, name, scopes, hash: sha256(key), prefix },
      metadata: this.bus.metadata(actor),
    });
    const made = result.state.key;
    return { key, keyId, orgId, name: made?.name ?? '', scopes: made?.scopes ?? [], prefix };
  }

  async revoke(orgId: string, keyId: string, actor: Actor): Promise<void> {
    const state = await this.state(keyId);
    if (state?.key?.orgId !== orgId) {
      throw refusal('not_found', ErrorCode.NotFound, `org ${orgId} has no API key ${keyId}`);
    }
    await this.bus.execute(apiKeyDecider, apiKeyStream(keyId), {
      type: 'RevokeApiKey',
      data: { keyId },
      metadata: this.bus.metadata(actor),
    });
  }

  list(orgId: string): ApiKeyDoc[] {
    return apiKeyQueries(this.readModels).list(orgId);
  }

  /** The caller of a bearer token, or null (unknown, malformed, wrong secret or revoked). */
  async authenticate(bearer: string | undefined | null): Promise<KeyIdentity | null> {
    const token = (bearer ?? '').replace(/^Bearer\s+/i, '').trim();
    const m = TOKEN.exec(token);
    if (m === null) return null;
    const keyId = uuidOf(m[1]);
    const state = await this.state(keyId);
    if (state?.key == null || state.revoked) return null;
    const want = Buffer.from(state.key.hash, 'hex');
    const got = Buffer.from(sha256(token), 'hex');
    if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
    return { orgId: state.key.orgId, keyId, scopes: state.key.scopes };
  }

  private async state(keyId: string) {
    const events = await this.store.readStream(apiKeyStream(keyId));
    if (events.length === 0) return null;
    return fold(apiKeyDecider, events as unknown as ApiKeyEvent[]);
  }
}
