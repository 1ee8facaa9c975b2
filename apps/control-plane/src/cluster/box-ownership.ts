import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { SHARED_STATE, type SharedState } from '../infrastructure/shared-state';
import { HEARTBEAT_MS, InstanceRegistry, LEASE_MS } from './instance-registry';

/** Why a box is not this instance's: another live instance holds it. */
export interface RemoteOwner {
  instance: string;
  url: string;
}

/**
 * Which instance owns which box: `box-owner:<sessionId>` holds the owner's name, renewed with
 * its heartbeat, so a box whose instance died (kill -9) is free 15 s later for another to take
 * over. Only the owner runs a box's processes, listens on its sockets and talks to its daemon;
 * the others forward to it (ForwardToOwner, OwnerRpc).
 */
@Injectable()
export class BoxOwnership implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Cluster');
  private readonly mine = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private readonly lostListeners: ((sessionId: string) => void)[] = [];

  constructor(
    @Inject(SHARED_STATE) private readonly state: SharedState,
    private readonly registry: InstanceRegistry,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.renewAll(), HEARTBEAT_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  get instance(): string {
    return this.registry.name;
  }

  /** Whether this instance owns the box now (as far as its last renewal knows). */
  isMine(sessionId: string): boolean {
    return this.mine.has(sessionId);
  }

  owned(): string[] {
    return [...this.mine];
  }

  /** Takes the box when nobody holds it (or this instance already does); false when another does. */
  async claim(sessionId: string): Promise<boolean> {
    const key = ownerKey(sessionId);
    const won =
      (await this.state.claim(key, this.instance, LEASE_MS)) ||
      (await this.state.renew(key, this.instance, LEASE_MS));
    if (won) this.mine.add(sessionId);
    return won;
  }

  /** Gives the box up: destroyed, or this instance stopping so another takes it at once. */
  async release(sessionId: string): Promise<void> {
    this.mine.delete(sessionId);
    await this.state.release(ownerKey(sessionId), this.instance).catch(() => false);
  }

  async releaseAll(): Promise<void> {
    for (const id of [...this.mine]) await this.release(id);
  }

  /** The live instance owning the box when it is not this one; null when this one or none does. */
  async remoteOwner(sessionId: string): Promise<RemoteOwner | null> {
    if (this.mine.has(sessionId)) return null;
    const owner = await this.state.get(ownerKey(sessionId));
    if (owner === null || owner === this.instance) return null;
    const record = await this.registry.find(owner);
    return record?.url ? { instance: owner, url: record.url } : null;
  }

  /** Called with a box this instance lost to another (it was away longer than the lease). */
  onLost(listener: (sessionId: string) => void): void {
    this.lostListeners.push(listener);
  }

  private async renewAll(): Promise<void> {
    for (const id of [...this.mine]) {
      const key = ownerKey(id);
      // Renewed, or (the shared state lost it) taken again; false only when another holds it.
      const kept = await this.state
        .renew(key, this.instance, LEASE_MS)
        .then(async (ok) => ok || (await this.state.claim(key, this.instance, LEASE_MS)))
        .catch(() => null);
      if (kept !== false) continue;
      // Someone else holds it now: this instance must not touch the box any more.
      this.mine.delete(id);
      this.logger.error(`box ${id}: another instance took it over; this one lets it go`);
      for (const listener of this.lostListeners) listener(id);
    }
  }
}

export const ownerKey = (sessionId: string): string => `box-owner:${sessionId}`;
