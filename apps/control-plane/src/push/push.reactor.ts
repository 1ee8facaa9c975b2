import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { RecordedEvent } from '@sessionboxer/event-store';
import {
  inboxItemIdOf,
  inboxQueries,
  type ReactionContext,
  type Reactor,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import webpush from 'web-push';
import { Reactors } from '../infrastructure/reactors';
import { READ_MODELS } from '../infrastructure/tokens';
import { PUSH_STORE } from './push.tokens';
import type { PushStore, PushSubscriptionRecord } from './push-store';

const SUBJECT = 'mailto:sessionboxer@localhost';
const GIVE_UP_AFTER = 5;

/**
 * One push: web-push encrypts (aes128gcm) and signs (VAPID); the request goes out by fetch, so
 * an http://127.0.0.1 endpoint the operator allowed (tests, dev) works as https does.
 */
async function send(
  sub: PushSubscriptionRecord,
  payload: string,
  keys: { publicKey: string; privateKey: string },
): Promise<number> {
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: sub.keys },
    payload,
    { vapidDetails: { subject: SUBJECT, ...keys }, TTL: 24 * 3600, contentEncoding: 'aes128gcm' },
  );
  const res = await fetch(details.endpoint, {
    method: details.method,
    headers: details.headers as Record<string, string>,
    body: details.body ? new Uint8Array(details.body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  await res.arrayBuffer().catch(() => undefined);
  return res.status;
}

/**
 * Each new inbox item goes to every enrolled device by Web Push (VAPID, aes128gcm). A reaction
 * to the history: a failed send throws, so the runner tries again; a 404 or 410 (the device
 * unsubscribed) removes the subscription. After GIVE_UP_AFTER tries an endpoint is skipped.
 */
@Injectable()
export class PushReactor implements Reactor, OnModuleInit {
  readonly name = 'inbox_web_push';
  readonly handles = ['NotificationSent', 'ApprovalRequested', 'TurnFinished'];
  private readonly logger = new Logger('WebPush');

  constructor(
    private readonly reactors: Reactors,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(PUSH_STORE) private readonly store: PushStore,
  ) {}

  onModuleInit(): void {
    this.reactors.register(this);
  }

  async react(event: RecordedEvent, ctx: ReactionContext): Promise<void> {
    const itemId = inboxItemIdOf(event);
    const item = itemId && inboxQueries(this.readModels).item(itemId);
    if (!item) return;
    const payload = JSON.stringify({
      itemId: item.id,
      kind: item.kind,
      title: item.sessionTitle || 'Sessionboxer',
      body: item.text,
      url: `/sessions/${encodeURIComponent(item.sessionId)}`,
    });
    const { publicKey, privateKey } = this.store.keys();
    const failures: string[] = [];
    for (const sub of this.store.all()) {
      const status = await send(sub, payload, { publicKey, privateKey }).catch(
        (e: Error) => e.message,
      );
      if (status === 404 || status === 410) this.store.remove(sub.endpoint);
      else if (typeof status === 'string' || status >= 300) {
        failures.push(`${new URL(sub.endpoint).host}: ${status}`);
      }
    }
    if (failures.length === 0) return;
    if (ctx.attempt >= GIVE_UP_AFTER) {
      this.logger.warn(`gave up pushing ${item.id} after ${ctx.attempt} tries`);
      return;
    }
    // Every device is sent to again on a retry (a repeated notification, same tag, replaces).
    throw new Error(`pushing ${item.id} failed: ${failures.join('; ')}`);
  }
}
