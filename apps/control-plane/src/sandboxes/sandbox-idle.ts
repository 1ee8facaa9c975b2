import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { isoMs } from '@sessionboxer/domain/sandbox';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { sandboxQueries, type SandboxDoc } from '@sessionboxer/projections/sandboxes.projection';
import { Clock } from '../infrastructure/clock';
import { READ_MODELS } from '../infrastructure/tokens';
import { JOBS, type JobFire, type JobsPort } from '../jobs';
import { SandboxUse } from './sandbox-use';

export const SANDBOX_IDLE_PREFIX = 'sandbox-idle-';

/**
 * idle_timeout_seconds through the jobs port: a one-shot `sandbox-idle-<id>` is due when the
 * sandbox would have gone unused that long (from its start, resume or update, or its last
 * use). When it fires, the sandbox stops with stopped_reason idle, or, used meanwhile, the
 * job is scheduled again for the new due time. Time is the control plane's Clock.
 */
@Injectable()
export class SandboxIdle implements OnModuleInit {
  private readonly logger = new Logger('SandboxIdle');

  constructor(
    @Inject(JOBS) private readonly jobs: JobsPort,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly use: SandboxUse,
    private readonly clock: Clock,
  ) {}

  private stop: (sandboxId: string) => Promise<void> = () => Promise.resolve();

  /** Who stops an idle sandbox (the sandboxes service, which owns the lifecycle). */
  onIdle(stop: (sandboxId: string) => Promise<void>): void {
    this.stop = stop;
  }

  onModuleInit(): void {
    this.jobs.onFire((fire) => this.fired(fire));
  }

  /** Schedules (or cancels) the sandbox's idle stop from what it is now. */
  async arm(doc: SandboxDoc): Promise<void> {
    const id = `${SANDBOX_IDLE_PREFIX}${doc.id}`;
    const timeout = doc.settings?.idleTimeoutSeconds ?? 0;
    if (doc.status !== 'running' || timeout === 0) {
      await this.jobs.cancel(id);
      return;
    }
    const idle = this.use.idleMs(doc.id, isoMs(doc.updatedAt ?? doc.createdAt ?? ''));
    const runAt = new Date(this.clock.now().getTime() + Math.max(0, timeout * 1000 - idle));
    await this.jobs.schedule({ id, runAt, data: { sandboxId: doc.id } });
  }

  private async fired(fire: JobFire): Promise<void> {
    if (fire.kind !== 'delayed' || !fire.id.startsWith(SANDBOX_IDLE_PREFIX)) return;
    const sandboxId = fire.id.slice(SANDBOX_IDLE_PREFIX.length);
    const doc = sandboxQueries(this.readModels).get(sandboxId);
    if (!doc || doc.status !== 'running' || !doc.settings?.idleTimeoutSeconds) return;
    const idle = this.use.idleMs(sandboxId, isoMs(doc.updatedAt ?? ''));
    if (idle < doc.settings.idleTimeoutSeconds * 1000) return this.arm(doc);
    this.logger.log(
      `sandbox ${doc.settings.name}: unused for ${Math.round(idle / 1000)} s; stopping`,
    );
    await this.stop(sandboxId);
  }
}
