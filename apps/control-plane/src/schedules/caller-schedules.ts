import { DomainError, ErrorCode, type Actor, type ScheduleActionInput } from '@sessionboxer/domain';
import {
  policyRefusal,
  type ScheduleCreateArgs,
  type ScheduleListing,
  type ScheduleSummary,
} from '@sessionboxer/mcp-adapters';
import { Inject, Injectable } from '@nestjs/common';
import { sidebarQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { READ_MODELS } from '../infrastructure/tokens';
import { titleFrom } from '../other-sessions';
import { resolveSession } from '../other-sessions';
import { Repositories } from '../repositories';
import { PolicyService } from '../settings';
import { Schedules } from './schedules.service';

/** What every call's CallerSchedules shares. */
@Injectable()
export class SchedulesForCalls {
  constructor(
    readonly schedules: Schedules,
    readonly policy: PolicyService,
    @Inject(READ_MODELS) readonly readModels: SqliteReadModelStore,
    readonly repositories: Repositories,
  ) {}
}

/**
 * schedule_create and schedule_list for ONE call of ONE session's agent. schedule_create is a
 * This Session only tool by its name; what it acts on decides the rest: prompting another
 * session, or starting new ones, needs All Sessions, checked here before anything is written.
 */
export class CallerSchedules {
  constructor(
    private readonly deps: SchedulesForCalls,
    private readonly sessionId: string,
    private readonly callId: string,
  ) {}

  async createSchedule(args: ScheduleCreateArgs): Promise<ScheduleSummary> {
    const action = this.action(args);
    const others = action.type === 'new_session' || action.sessionId !== this.sessionId;
    if (others) await this.needAllSessions(action);
    const actor: Actor = { kind: 'agent', sessionId: this.sessionId };
    const name =
      args.name ??
      titleFrom(action.type === 'prompt' ? action.text : (action.title ?? action.prompt));
    return this.deps.schedules.create(
      {
        name,
        cron: args.cron,
        timezone: args.timezone,
        action,
        createdBy: { sessionId: this.sessionId },
      },
      actor,
      `${this.sessionId}/call/${this.callId}`,
    );
  }

  listSchedules(): Promise<ScheduleListing[]> {
    // The tool's shape is the spec's: the skip policy is the Scheduled tasks page's business.
    const rows = this.deps.schedules.list().map(({ skipMissed: _, runs: __, ...row }) => row);
    return Promise.resolve(rows);
  }

  /** The action with the target session resolved (an id prefix, or the caller when left out). */
  private action(args: ScheduleCreateArgs): ScheduleActionInput {
    const a = args.action;
    // Its repositories must be Global settings' now, or the schedule is refused (not its runs).
    if (a.type === 'new_session') {
      this.deps.repositories.requireKnown(a.repos);
      return a;
    }
    if (a.sessionId === undefined)
      return { type: 'prompt', sessionId: this.sessionId, text: a.text };
    const sessions = sidebarQueries(this.deps.readModels).list();
    return { type: 'prompt', sessionId: resolveSession(sessions, a.sessionId).id, text: a.text };
  }

  private async needAllSessions(action: ScheduleActionInput): Promise<void> {
    const policy = await this.deps.policy.forCall(this.sessionId);
    const refusal = policyRefusal('schedule_create', policy, 'all');
    if (refusal === null) return;
    const what =
      action.type === 'prompt'
        ? "prompting another session's agent on a schedule"
        : 'starting new sessions on a schedule';
    throw new DomainError(ErrorCode.Forbidden, `${what}: ${refusal}`);
  }
}
