import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import type { EventStore } from '@sessionboxer/event-store';
import {
  sidebarQueries,
  turnSnapshotQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import type { AppConfig } from '../../config';
import { CommandBus } from '../../infrastructure/command-bus';
import { APP_CONFIG, EVENT_STORE, READ_MODELS } from '../../infrastructure/tokens';
import { JOBS, type JobFire, type JobsPort } from '../../jobs';
import { markBlobs, sweepBlobs, type Collected } from './blob-gc';
import { TurnSnapshots } from './turn-snapshots.service';

/** The one-shot a session's deletion schedules (its id is the sessions module's to use). */
export const BLOB_GC_NOW_JOB = 'snapshot-blobs-gc-now';

/** The jobs port's schedule that collects snapshot blobs: every hour, at minute 23. */
export const BLOB_GC_SCHEDULE = { id: 'snapshot-blobs-gc', cron: '23 * * * *' };

/**
 * Collects the blobs of turn snapshots no live snapshot's manifest names (see collectBlobs),
 * every hour through the jobs port (on one worker when the jobs are in Redis), and when asked
 * (`collect`, for a session's removal). The liveness of a snapshot comes from the read
 * models, and only once they have caught up with the history's head: a read model being
 * rebuilt knows no snapshot yet, and must not have every manifest dropped.
 */
@Injectable()
export class SnapshotBlobsGc implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('SnapshotBlobs');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(JOBS) private readonly jobs: JobsPort,
    private readonly bus: CommandBus,
    private readonly turns: TurnSnapshots,
  ) {}

  onModuleInit(): void {
    this.jobs.onFire((fire) => this.fired(fire));
    // The schedule is no history's: Redis losing the jobs loses it, so it is set again, once
    // at once and once after the jobs' own rebuild from the history (which drops what the
    // history does not name) has surely run.
    this.jobs.onDataLost(async () => {
      await this.schedule();
      const again = setTimeout(
        () => void this.schedule().catch((e: unknown) => this.failed(e)),
        10_000,
      );
      again.unref();
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.boxes) await this.schedule();
  }

  /** One collection now; logs what it freed. `graceMs` is for tests (GRACE_MS by default). */
  async collect(asked: { now?: number; graceMs?: number } = {}): Promise<Collected> {
    const head = await this.eventStore.headPosition();
    if (head >= 0) await this.bus.waitFor(head);
    const snapshots = turnSnapshotQueries(this.readModels);
    const sessions = sidebarQueries(this.readModels);
    const live = (sessionId: string, snapshotId: string) =>
      sessions.get(sessionId) !== null && snapshots.byId(sessionId, snapshotId) !== null;
    const options = {
      blobs: this.turns.blobStore,
      manifestsRoot: this.turns.manifestsRoot,
      live,
      now: asked.now ?? Date.now(),
      graceMs: asked.graceMs,
    };
    // Marking needs no lock (what a take writes meanwhile is young); the sweep runs alone.
    const marked = await markBlobs(options);
    const done = await this.turns.lock.exclusive(() => sweepBlobs(options, marked));
    this.logger.log(
      `collected ${done.deleted} snapshot blobs no snapshot names, ${done.freedBytes} bytes freed (${done.kept} kept, ${done.manifestsDropped} manifests of no snapshot dropped)`,
    );
    return done;
  }

  private async schedule(): Promise<void> {
    await this.jobs.upsertSchedule({ ...BLOB_GC_SCHEDULE, timezone: 'UTC' });
  }

  private failed(e: unknown): void {
    this.logger.warn(`could not schedule the snapshot blob collection: ${String(e)}`);
  }

  private async fired(fire: JobFire): Promise<void> {
    const hourly = fire.kind === 'cron' && fire.id === BLOB_GC_SCHEDULE.id;
    // A deleted session's one-shot (DeletedSessions in the sessions module).
    const asked = fire.kind === 'delayed' && fire.id === BLOB_GC_NOW_JOB;
    if (!hourly && !asked) return;
    await this.collect();
  }
}
