import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { SessionStopped } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { ReactionContext, Reactor } from '@sessionboxer/projections';
import { Reactors } from '../infrastructure/reactors';
import { ChildSessions } from './child-sessions.service';

/**
 * The reaction to `SessionStopped`: a stopped session an agent created no longer counts against
 * its creator's 3 alive nor the global cap, so both ledgers free its places. Whoever stopped it
 * is the actor of the frees. A stop waits for this reaction before it answers
 * (SessionsService), so "stop one, create another" works at once.
 */
@Injectable()
export class StoppedChildren implements Reactor, OnModuleInit {
  static readonly NAME = 'ledger_frees_stopped_session';
  readonly name = StoppedChildren.NAME;
  readonly handles = ['SessionStopped'];

  constructor(
    private readonly reactors: Reactors,
    private readonly children: ChildSessions,
  ) {}

  onModuleInit(): void {
    this.reactors.register(this);
  }

  async react(event: RecordedEvent, ctx: ReactionContext): Promise<void> {
    const { sessionId } = (event as RecordedEvent & SessionStopped).data;
    await this.children.stopped(sessionId, event.metadata.actor, ctx.key());
  }
}
