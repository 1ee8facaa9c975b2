import { Injectable, Logger } from '@nestjs/common';
import {
  scheduleDecider,
  scheduleStream,
  type Actor,
  type ScheduleAction,
  type ScheduleRunOutcome,
} from '@sessionboxer/domain';
import type { ScheduleDoc } from '@sessionboxer/projections';
import { SessionAgent } from '../agent';
import { CommandBus } from '../infrastructure/command-bus';
import { errorText } from '../jobs';
import { titleFrom } from '../other-sessions';
import { SessionsService } from '../sessions';
import { SettingsService } from '../settings';
import { Schedules } from './schedules.service';

/**
 * What a schedule does when it fires. Delivery is at least once, so every command's key
 * derives from the schedule and the occurrence: a fire delivered twice prompts (or creates)
 * once, and records one run. A new session's stop after its first turn is a reaction
 * (StopAfterFirstTurn).
 */
@Injectable()
export class ScheduleFires {
  private readonly logger = new Logger('Schedules');

  constructor(
    private readonly schedules: Schedules,
    private readonly agent: SessionAgent,
    private readonly sessions: SessionsService,
    private readonly settings: SettingsService,
    private readonly bus: CommandBus,
  ) {}

  async fire(scheduleId: string, scheduledFor: Date): Promise<void> {
    const doc = this.schedules.find(scheduleId);
    // Deleted or disabled after the fire was queued: nothing to do.
    if (!doc?.enabled) return;
    const occurrence = scheduledFor.toISOString();
    if (doc.lastRunAt !== null && doc.lastRunAt >= occurrence) return;
    const key = `schedule/${scheduleId}/${occurrence}`;
    let outcome: ScheduleRunOutcome;
    try {
      outcome = { ok: true, ...(await this.run(doc, doc.action, key)) };
    } catch (e) {
      // A refusal (a session gone, stopped, in error) is this run's outcome, not a retry.
      outcome = { ok: false, detail: errorText(e) };
      this.logger.warn(`schedule ${scheduleId} (${occurrence}): ${outcome.detail}`);
    }
    await this.bus.execute(scheduleDecider, scheduleStream(scheduleId), {
      type: 'RecordScheduleRun',
      data: { scheduleId, scheduledFor: occurrence, outcome },
      metadata: this.bus.metadata(this.actor(scheduleId), `run/${key}`),
    });
  }

  private async run(
    doc: ScheduleDoc,
    action: ScheduleAction,
    key: string,
  ): Promise<{ detail: string; sessionId: string }> {
    const from = this.actor(doc.id);
    if (action.type === 'prompt') {
      const { sessionId, text } = action;
      const receipt = await this.agent.prompt(sessionId, { text, from, key });
      return { detail: `prompted session ${sessionId} (${receipt.status})`, sessionId };
    }
    const settings = await this.settings.current();
    const session = await this.sessions.create(
      {
        title: action.title ?? titleFrom(action.prompt),
        provider: action.provider ?? settings.defaults.provider,
        repos: action.repos,
      },
      { actor: from, idempotencyKey: key },
    );
    await this.agent.prompt(session.id, { text: action.prompt, from, key: `first-prompt/${key}` });
    return { detail: `started session ${session.id}`, sessionId: session.id };
  }

  private actor(scheduleId: string): Actor {
    return { kind: 'system', id: `schedule:${scheduleId}` };
  }
}
