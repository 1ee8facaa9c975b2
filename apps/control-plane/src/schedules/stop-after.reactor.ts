import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { sessionStream, type TurnFinished } from '@sessionboxer/domain';
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';
import {
  conversationQueries,
  type ReactionContext,
  type Reactor,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { Reactors } from '../infrastructure/reactors';
import { EVENT_STORE, READ_MODELS } from '../infrastructure/tokens';
import { SessionsService } from '../sessions';
import { Schedules } from './schedules.service';

const SCHEDULE_ACTOR = /^schedule:(.+)$/;

/**
 * A `new_session` schedule with stopAfter: the session it started is stopped once its first
 * turn has ended (finished, failed or interrupted). A reaction to the history (which schedule
 * created the session is its SessionCreated's actor), so a restart or a second instance
 * neither forgets it nor stops twice.
 */
@Injectable()
export class StopAfterFirstTurn implements Reactor, OnModuleInit {
  readonly name = 'schedule_stops_after_first_turn';
  readonly handles = ['TurnFinished'];

  constructor(
    private readonly reactors: Reactors,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly schedules: Schedules,
    private readonly sessions: SessionsService,
  ) {}

  onModuleInit(): void {
    this.reactors.register(this);
  }

  async react(event: RecordedEvent, ctx: ReactionContext): Promise<void> {
    const { conversationId, turn } = (event as RecordedEvent & TurnFinished).data;
    if (turn !== 1) return;
    const sessionId = conversationQueries(this.readModels).get(conversationId)?.sessionId;
    if (!sessionId) return;
    const [created] = await this.store.readStream(sessionStream(sessionId), { maxCount: 1 });
    const actor = created?.metadata.actor;
    const scheduleId = actor?.kind === 'system' ? SCHEDULE_ACTOR.exec(actor.id)?.[1] : undefined;
    if (scheduleId === undefined) return;
    const action = this.schedules.find(scheduleId)?.action;
    if (action?.type !== 'new_session' || !action.stopAfter) return;
    await this.sessions.stop(sessionId, 'its scheduled task finished', {
      actor,
      idempotencyKey: ctx.key(),
    });
  }
}
