import { Inject, Injectable } from '@nestjs/common';
import {
  scheduleDecider,
  scheduleStream,
  type Actor,
  type ScheduleActionInput,
  type ScheduleCreator,
} from '@sessionboxer/domain';
import { deterministicUuid } from '@sessionboxer/event-store';
import type { ScheduleSummary } from '@sessionboxer/mcp-adapters';
import {
  scheduleQueries,
  type ScheduleDoc,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { Clock } from '../infrastructure/clock';
import { CommandBus } from '../infrastructure/command-bus';
import { READ_MODELS } from '../infrastructure/tokens';
import { checkCron, checkTimezone } from '../jobs';
import type { JobsPort } from '../jobs';
import { JOBS } from '../jobs';
import type { ScheduleView } from '@sessionboxer/contracts';
import { cronSchedule, scheduleView } from './schedule-view';

/** What creating a schedule takes, once the caller's edge has resolved who and what. */
export interface NewSchedule {
  name: string;
  cron: string;
  timezone: string;
  action: ScheduleActionInput;
  skipMissed?: boolean;
  createdBy: ScheduleCreator;
}

/** What a person changes on an existing schedule (PATCH /api/schedules/:id); left out: kept. */
export interface ScheduleChange {
  enabled?: boolean;
  skipMissed?: boolean;
}

/**
 * Scheduled tasks: the commands, the read model and the jobs adapter kept in step. The event
 * history is the truth; the adapter is told after each command (and rebuilt from the history
 * at boot and when Redis lost its data, see JobsBoot).
 */
@Injectable()
export class Schedules {
  constructor(
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(JOBS) private readonly jobs: JobsPort,
    private readonly clock: Clock,
  ) {}

  /** `key` makes a repeated request (a resent tool call) create one schedule. */
  async create(input: NewSchedule, actor: Actor, key: string): Promise<ScheduleSummary> {
    // The jobs' own rules, so a schedule recorded is one the adapter accepts.
    const cron = checkCron(input.cron);
    const timezone = checkTimezone(input.timezone);
    const scheduleId = deterministicUuid(`schedule/${key}`);
    await this.bus.execute(scheduleDecider, scheduleStream(scheduleId), {
      type: 'CreateSchedule',
      data: { ...input, scheduleId, cron, timezone },
      metadata: this.bus.metadata(actor, `schedule/${key}`),
    });
    const doc = this.get(scheduleId);
    const info = await this.jobs.upsertSchedule(cronSchedule(doc));
    const { id, name } = doc;
    const nextRunAt = info.nextRunAt?.toISOString() ?? scheduleView(doc, this.now()).nextRunAt;
    return { id, name, cron: doc.cron, timezone: doc.timezone, nextRunAt };
  }

  list(): ScheduleView[] {
    const now = this.now();
    return scheduleQueries(this.readModels)
      .list()
      .map((d) => scheduleView(d, now));
  }

  view(scheduleId: string): ScheduleView {
    return scheduleView(this.get(scheduleId), this.now());
  }

  /**
   * Applies each change given, one command each (a value it already has records nothing),
   * then tells the jobs adapter: it holds the skip policy it applies after a restart.
   */
  async change(scheduleId: string, change: ScheduleChange, actor: Actor): Promise<ScheduleView> {
    const stream = scheduleStream(this.get(scheduleId).id);
    if (change.skipMissed !== undefined) {
      await this.bus.execute(scheduleDecider, stream, {
        type: 'SetScheduleSkipPolicy',
        data: { scheduleId, skipMissed: change.skipMissed },
        metadata: this.bus.metadata(actor),
      });
    }
    if (change.enabled !== undefined) {
      await this.bus.execute(scheduleDecider, stream, {
        type: 'SetScheduleEnabled',
        data: { scheduleId, enabled: change.enabled },
        metadata: this.bus.metadata(actor),
      });
    }
    const doc = this.get(scheduleId);
    // Enabled (again, or with its new skip policy): runs from now on. What passed while it was
    // off is not caught up, and a policy changed now fires no missed run at once: the policy
    // applies to what a later restart (or a Redis that lost its data) misses.
    if (doc.enabled)
      await this.jobs.upsertSchedule({ ...cronSchedule(doc), lastRunAt: this.now() });
    else await this.jobs.removeSchedule(scheduleId);
    return this.view(scheduleId);
  }

  async remove(scheduleId: string, actor: Actor): Promise<void> {
    await this.bus.execute(scheduleDecider, scheduleStream(this.get(scheduleId).id), {
      type: 'DeleteSchedule',
      data: { scheduleId },
      metadata: this.bus.metadata(actor),
    });
    await this.jobs.removeSchedule(scheduleId);
  }

  find(scheduleId: string): ScheduleDoc | null {
    return scheduleQueries(this.readModels).get(scheduleId);
  }

  private get(scheduleId: string): ScheduleDoc {
    const doc = this.find(scheduleId);
    if (!doc) throw new DomainError(ErrorCode.NotFound, `schedule ${scheduleId} does not exist`);
    return doc;
  }

  private now(): Date {
    return this.clock.now();
  }
}
