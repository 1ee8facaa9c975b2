import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { EventStore } from '@sessionboxer/event-store';
import {
  ReadModelLagError,
  scheduleQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { CommandBus } from '../infrastructure/command-bus';
import { EVENT_STORE, READ_MODELS } from '../infrastructure/tokens';
import { describeFire } from '../jobs';
import type { JobFire, JobsPort, JobsSnapshot } from '../jobs';
import { JOBS } from '../jobs';
import { APPROVAL_EXPIRY_PREFIX, Approvals } from '../other-sessions';
import { ScheduleFires } from './schedule-fires';
import { cronSchedule } from './schedule-view';

/**
 * Wires the jobs adapter to the event history: at boot it registers the one fire handler,
 * hands the adapter every enabled schedule (with its last run, for the skip policy) and every
 * pending approval's expiry, then starts it; when Redis lost its data it rebuilds the same set.
 * Closed before the stores, so a running handler can still write its run.
 */
@Injectable()
export class JobsBoot implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');

  constructor(
    @Inject(JOBS) private readonly jobs: JobsPort,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    private readonly bus: CommandBus,
    private readonly fires: ScheduleFires,
    private readonly approvals: Approvals,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The read models must show the whole history before it is replayed into the adapter.
    const head = await this.eventStore.headPosition();
    if (head >= 0) await this.caughtUp(head);
    this.jobs.onFire((fire) => this.handle(fire));
    const snapshot = this.snapshot();
    for (const schedule of snapshot.schedules) await this.jobs.upsertSchedule(schedule);
    for (const job of snapshot.delayed) await this.jobs.schedule(job);
    this.jobs.onDataLost(async () => {
      this.logger.warn('the jobs store lost its data; rebuilding it from the event history');
      await this.jobs.rebuild(this.snapshot());
    });
    await this.jobs.start();
  }

  /** A long history takes longer than one wait's timeout to catch up after a restart. */
  private async caughtUp(head: number): Promise<void> {
    for (;;) {
      try {
        return await this.bus.waitFor(head);
      } catch (e) {
        if (!(e instanceof ReadModelLagError) || e.reason !== 'timeout') throw e;
        this.logger.log(
          `waiting for the read models to reach position ${head} before the jobs start`,
        );
      }
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.jobs.close();
  }

  /** What the event history says the adapter should hold. */
  snapshot(): JobsSnapshot {
    const schedules = scheduleQueries(this.readModels)
      .list()
      .filter((d) => d.enabled)
      .map(cronSchedule);
    return { schedules, delayed: this.approvals.pendingExpiries() };
  }

  private async handle(fire: JobFire): Promise<void> {
    if (fire.kind === 'cron') return this.fires.fire(fire.id, fire.scheduledFor);
    if (fire.id.startsWith(APPROVAL_EXPIRY_PREFIX)) {
      const { approvalId } = fire.data as { approvalId: string };
      return this.approvals.expire(approvalId);
    }
    this.logger.warn(`${describeFire(fire)} is no job of this control plane; dropped`);
  }
}
