import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, fold, type Actor } from '@sessionboxer/domain/kernel';
import { DEFAULT_ORG_ID, orgDecider, orgStream, type OrgEvent } from '@sessionboxer/domain/org';
import type { EventStore } from '@sessionboxer/event-store';
import type { AppConfig } from '../config';
import { Clock, IdGenerator } from '../infrastructure/clock';
import { SHARED_STATE, type SharedState } from '../infrastructure/shared-state';
import { APP_CONFIG, EVENT_STORE } from '../infrastructure/tokens';
import { ApiKeys } from './api-keys.service';
import {
  LOGIN_SCOPES,
  LOGIN_TTL_MS,
  type LoginDecision,
  type LoginRequest,
  POLL_INTERVAL_SECONDS,
  clientName,
  keys,
  parseJson,
  pollSecret,
  sha256,
  userCode,
} from './cli-login-request';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Requests one address may start a minute (the route is public). */
const STARTS_PER_MINUTE = 20;

export type PollAnswer =
  | { status: 'pending' | 'denied' | 'expired' }
  | { status: 'approved'; key: string; key_id: string; org_id: string; scopes: string[] };

/** `sessionboxer login`: requests, a person's decision, the key handed out once. */
@Injectable()
export class CliLogins {
  constructor(
    @Inject(SHARED_STATE) private readonly shared: SharedState,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly apiKeys: ApiKeys,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async start(body: { org?: unknown; client?: unknown }, address: string) {
    const tries = await this.shared.increment(keys.throttle(address), 60_000);
    if (tries > STARTS_PER_MINUTE) {
      throw new DomainError(
        ErrorCode.TooManyAttempts,
        `more than ${STARTS_PER_MINUTE} login requests a minute from this address; wait a minute`,
      );
    }
    const orgId = await this.org(body?.org);
    const poll = pollSecret();
    const now = this.clock.now();
    const request: LoginRequest = {
      requestId: this.ids.next(),
      userCode: userCode(),
      orgId,
      client: clientName(body?.client),
      pollHash: sha256(poll),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + LOGIN_TTL_MS).toISOString(),
    };
    await this.shared.set(keys.request(request.requestId), JSON.stringify(request), LOGIN_TTL_MS);
    await this.shared.set(keys.poll(request.pollHash), request.requestId, LOGIN_TTL_MS);
    return {
      request_id: request.requestId,
      poll_token: poll,
      user_code: request.userCode,
      verification_url: `${this.config.publicUrl}/cli-login/${request.requestId}`,
      expires_at: request.expiresAt,
      interval_seconds: POLL_INTERVAL_SECONDS,
    };
  }

  /** What the approval page shows; expired or unknown requests are not_found. */
  async view(requestId: string) {
    const request = await this.live(requestId);
    const decision = parseJson<LoginDecision>(await this.shared.get(keys.decision(requestId)));
    return {
      request_id: request.requestId,
      user_code: request.userCode,
      org_id: request.orgId,
      org_name: await this.orgName(request.orgId),
      scopes: LOGIN_SCOPES,
      client: request.client,
      status: decision?.decision ?? 'pending',
      expires_at: request.expiresAt,
    };
  }

  async decide(requestId: string, decision: LoginDecision['decision'], actor: Actor) {
    if (actor.kind !== 'person') {
      throw new DomainError(ErrorCode.Forbidden, 'only a signed-in person approves a login');
    }
    const request = await this.live(requestId);
    const value: LoginDecision = { decision, actor, at: this.clock.now().toISOString() };
    const ttl = Math.max(1, Date.parse(request.expiresAt) - this.clock.now().getTime());
    if (!(await this.shared.claim(keys.decision(requestId), JSON.stringify(value), ttl))) {
      throw new DomainError(
        ErrorCode.InvalidState,
        `login request ${requestId} is decided already`,
      );
    }
    return { request_id: requestId, status: decision };
  }

  /** The CLI's poll: pending, denied, expired, or (once) approved with the new key. */
  async poll(token: unknown): Promise<PollAnswer> {
    if (typeof token !== 'string' || !token.startsWith('sbl_') || token.length > 100) {
      throw new DomainError(ErrorCode.ValidationFailed, 'poll_token must be the token login gave');
    }
    const requestId = await this.shared.get(keys.poll(sha256(token)));
    const request = requestId ? await this.live(requestId).catch(() => null) : null;
    if (!request || request.pollHash !== sha256(token)) return { status: 'expired' };
    const decision = parseJson<LoginDecision>(await this.shared.get(keys.decision(requestId!)));
    if (!decision) return { status: 'pending' };
    if (decision.decision === 'denied') {
      await this.forget(request);
      return { status: 'denied' };
    }
    // Single use: of concurrent polls, one hands the key out.
    if (!(await this.shared.claim(keys.handedOut(request.requestId), '1', LOGIN_TTL_MS))) {
      return { status: 'expired' };
    }
    await this.forget(request);
    const made = await this.apiKeys.create(
      request.orgId,
      `sessionboxer login (${request.client})`,
      LOGIN_SCOPES,
      decision.actor,
    );
    return {
      status: 'approved',
      key: made.key,
      key_id: made.keyId,
      org_id: made.orgId,
      scopes: made.scopes,
    };
  }

  private async live(requestId: string): Promise<LoginRequest> {
    const request = UUID.test(requestId)
      ? parseJson<LoginRequest>(await this.shared.get(keys.request(requestId)))
      : null;
    if (!request || Date.parse(request.expiresAt) <= this.clock.now().getTime()) {
      throw new DomainError(
        ErrorCode.NotFound,
        `no login request ${requestId}: it expired, was used, or never existed; run sessionboxer login again`,
      );
    }
    return request;
  }

  private async forget(request: LoginRequest): Promise<void> {
    await this.shared.delete(keys.request(request.requestId));
    await this.shared.delete(keys.poll(request.pollHash));
    await this.shared.delete(keys.decision(request.requestId));
  }

  private async org(raw: unknown): Promise<string> {
    const orgId = raw === undefined || raw === 'default' ? DEFAULT_ORG_ID : raw;
    if (typeof orgId !== 'string' || !UUID.test(orgId) || !(await this.apiKeys.orgExists(orgId))) {
      throw new DomainError(ErrorCode.NotFound, `there is no org ${String(raw)}`);
    }
    return orgId;
  }

  private async orgName(orgId: string): Promise<string> {
    const events = await this.store.readStream(orgStream(orgId));
    return fold(orgDecider, events as unknown as OrgEvent[]).name ?? orgId;
  }
}
