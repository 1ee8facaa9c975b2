import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  scheduleDecider,
  scheduleStream,
  type Actor,
  type ScheduleAction,
} from '@sessionboxer/domain';
import type { ScheduleDoc } from '@sessionboxer/projections';
import { SessionAgent } from '../agent';
import { CommandBus } from '../infrastructure/command-bus';
import { errorText } from '../jobs';
import { titleFrom } from '../other-sessions';
import { SessionsService } from '../sessions';
import { SettingsService } from '../settings';
import { Schedules } from './schedules.service';

const STOP_POLL_MS = 1000;
/** A first turn still running after this is left alone (the session is not stopped). */
const STOP_AFTER_MAX_MS = 6 * 60 * 60 * 1000;

/**
 * What a schedule does when it fires. Delivery is at least once, so every command's key
 * derives from the schedule and the occurrence: a fire delivered twice prompts (or creates)
 * once, and records one run.
 */
@Injectable()
export class ScheduleFires implements OnApplicationShutdown {
  private readonly logger = new Logger('Schedules');
  private readonly watching = new Set<NodeJS.Timeout>();

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
    let outcome: { ok: boolean; detail: string };
    try {
      outcome = { ok: true, detail: await this.run(doc, doc.action, key) };
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

  onApplicationShutdown(): void {
    for (const timer of this.watching) clearTimeout(timer);
    this.watching.clear();
  }

  private async run(doc: ScheduleDoc, action: ScheduleAction, key: string): Promise<string> {
    const from = this.actor(doc.id);
    if (action.type === 'prompt') {
      const receipt = await this.agent.prompt(action.sessionId, { text: action.text, from, key });
      return `prompted session ${action.sessionId} (${receipt.status})`;
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
    if (action.stopAfter) this.stopAfterFirstTurn(session.id, from, Date.now());
    return `started session ${session.id}`;
  }

  /** stopAfter: the session is stopped once its first turn has ended. */
  private stopAfterFirstTurn(sessionId: string, actor: Actor, since: number): void {
    const timer = setTimeout(() => {
      this.watching.delete(timer);
      const doc = this.agent.conversation(sessionId);
      const ended = doc !== null && doc.turns >= 1 && doc.currentTurn === null;
      if (!ended) {
        if (Date.now() - since < STOP_AFTER_MAX_MS)
          this.stopAfterFirstTurn(sessionId, actor, since);
        return;
      }
      this.sessions
        .stop(sessionId, 'its scheduled task finished', { actor })
        .catch((e: unknown) => this.logger.warn(`stopping ${sessionId}: ${errorText(e)}`));
    }, STOP_POLL_MS);
    this.watching.add(timer);
  }

  private actor(scheduleId: string): Actor {
    return { kind: 'system', id: `schedule:${scheduleId}` };
  }
}
