import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Actor, BoxDestroyed } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import {
  sessionDetailsQueries,
  sidebarQueries,
  type ReactionContext,
  type Reactor,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { Reactors } from '../infrastructure/reactors';
import { READ_MODELS } from '../infrastructure/tokens';
import { SessionsService } from './sessions.service';

const SYSTEM: Actor = { kind: 'system', id: 'box-lifecycle' };

/**
 * The reaction to `BoxDestroyed`: a session without its box is over, so it stops, which is what
 * the limits count as not alive: an agent-created session gives its places in its creator's and
 * the global ledger back, exactly as `session_stop` does. Its running turn fails rather than
 * being interrupted (the agent's own reactor to the same event, and SessionAgent.stopped, see
 * to it). A reactor with a checkpoint, so a destroy the control plane went down in the middle
 * of is reacted to at the next start. (It belongs with the sessions module when that is cut.)
 */
@Injectable()
export class DestroyedBoxes implements Reactor, OnModuleInit {
  readonly name = 'destroyed_box_stops_session';
  readonly handles = ['BoxDestroyed'];

  constructor(
    private readonly reactors: Reactors,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly sessions: SessionsService,
  ) {}

  onModuleInit(): void {
    this.reactors.register(this);
  }

  /** A stopped session stays as it is (a refusal, should it stop meanwhile, is an answer). */
  async react(event: RecordedEvent, ctx: ReactionContext): Promise<void> {
    const { sessionId } = (event as RecordedEvent & BoxDestroyed).data;
    // An old event caught up on after a restart: a box provisioned since (a resume) runs on.
    if (sessionDetailsQueries(this.readModels).get(sessionId)?.box?.status !== 'destroyed') return;
    if (sidebarQueries(this.readModels).get(sessionId)?.status !== 'running') return;
    await this.sessions.stop(sessionId, 'its box was destroyed', {
      actor: SYSTEM,
      idempotencyKey: ctx.key(),
    });
  }
}
