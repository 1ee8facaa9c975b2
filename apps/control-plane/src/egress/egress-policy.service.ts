import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  DEFAULT_EGRESS_ALLOW_LIST,
  effectiveAllowList,
  egressPolicyDecider,
  egressPolicyStream,
  type Actor,
  type EgressPolicyEvent,
  type SessionEgressMode,
} from '@sessionboxer/domain';
import type { EgressPolicyView, SessionEgressView } from '@sessionboxer/contracts';
import type { EventStore, Subscription } from '@sessionboxer/event-store';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { requireSession } from '../common/require-session';
import { CommandBus } from '../infrastructure/command-bus';
import { EVENT_STORE, READ_MODELS } from '../infrastructure/tokens';

/**
 * Global settings' egress allow list and each session's own (the last event of each stream).
 * Every connection reads them, so the last event of each stream is kept in memory, forgotten
 * when this service writes the stream, and when any instance's write of it reaches the log.
 */
const STREAM_PREFIX = egressPolicyStream().replace(/global$/, '');

@Injectable()
export class EgressPolicyService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly cache = new Map<string, EgressPolicyEvent | null>();
  /** Writes so far: a read that a write overtook is not cached. */
  private writes = 0;
  private subscription: Subscription | null = null;
  /** Only while the log is followed can a cached list be known current. */
  private following = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly bus: CommandBus,
  ) {}

  /** Another instance's change of a list is seen here too: its stream is read again. */
  onApplicationBootstrap(): void {
    const subscription = this.store.subscribeToAll({ fromPosition: 'end' });
    this.subscription = subscription;
    this.following = true;
    void (async () => {
      try {
        for await (const event of subscription) {
          if (event.streamName.startsWith(STREAM_PREFIX)) this.forget(event.streamName);
        }
      } catch {
        // The log is no longer followed: nothing is cached from now on.
      }
      this.following = false;
      this.cache.clear();
    })();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
  }

  async global(): Promise<EgressPolicyView> {
    const last = await this.last(egressPolicyStream());
    return last?.type === 'EgressPolicySet'
      ? { allow: last.data.allow, isDefault: false, defaults: [...DEFAULT_EGRESS_ALLOW_LIST] }
      : {
          allow: [...DEFAULT_EGRESS_ALLOW_LIST],
          isDefault: true,
          defaults: [...DEFAULT_EGRESS_ALLOW_LIST],
        };
  }

  async session(sessionId: string): Promise<SessionEgressView> {
    requireSession(this.readModels, sessionId);
    const [global, own] = await Promise.all([this.globalList(), this.own(sessionId)]);
    return { sessionId, ...own, effective: effectiveAllowList(global, own) };
  }

  /** The list in force for one session's next connection. */
  async allowListFor(sessionId: string): Promise<string[]> {
    const [global, own] = await Promise.all([this.globalList(), this.own(sessionId)]);
    return effectiveAllowList(global, own);
  }

  async setGlobal(allow: string[], actor: Actor, key?: string): Promise<EgressPolicyView> {
    try {
      await this.bus.execute(egressPolicyDecider, egressPolicyStream(), {
        type: 'SetEgressPolicy',
        data: { allow },
        metadata: this.bus.metadata(actor, key),
      });
    } finally {
      this.forget(egressPolicyStream());
    }
    return this.global();
  }

  async setSession(
    sessionId: string,
    change: { mode: SessionEgressMode; allow: string[] },
    actor: Actor,
    key?: string,
  ): Promise<SessionEgressView> {
    requireSession(this.readModels, sessionId);
    try {
      await this.bus.execute(egressPolicyDecider, egressPolicyStream(sessionId), {
        type: 'SetSessionEgress',
        data: { sessionId, mode: change.mode, allow: change.allow },
        metadata: this.bus.metadata(actor, key),
      });
    } finally {
      this.forget(egressPolicyStream(sessionId));
    }
    return this.session(sessionId);
  }

  private async globalList(): Promise<string[] | null> {
    const last = await this.last(egressPolicyStream());
    return last?.type === 'EgressPolicySet' ? last.data.allow : null;
  }

  private async own(sessionId: string): Promise<{ mode: SessionEgressMode; allow: string[] }> {
    const last = await this.last(egressPolicyStream(sessionId));
    return last?.type === 'SessionEgressSet'
      ? { mode: last.data.mode, allow: last.data.allow }
      : { mode: 'inherit', allow: [] };
  }

  private async last(stream: string): Promise<EgressPolicyEvent | null> {
    const cached = this.cache.get(stream);
    if (cached !== undefined) return cached;
    const writes = this.writes;
    const [event] = await this.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    const last = event ? ({ type: event.type, data: event.data } as EgressPolicyEvent) : null;
    if (writes === this.writes && this.following) this.cache.set(stream, last);
    return last;
  }

  private forget(stream: string): void {
    this.writes += 1;
    this.cache.delete(stream);
  }
}
