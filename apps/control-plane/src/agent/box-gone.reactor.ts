import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { BoxDestroyed, BoxFailed, BoxProcessesLost } from '@sessionboxer/domain';
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';
import {
  sessionDetailsQueries,
  type Reactor,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { Reactors } from '../infrastructure/reactors';
import { EVENT_STORE, READ_MODELS } from '../infrastructure/tokens';
import { TurnDispatcher } from './turn-dispatcher';

type BoxGone = RecordedEvent & (BoxFailed | BoxDestroyed | BoxProcessesLost);

/**
 * A box that failed, was destroyed or lost its processes (a host reboot) took its running turn's agent with it: the turn fails
 * (`not_running`) instead of waiting for output that never comes. The failure's command id
 * comes from the turn (TurnDispatcher), so a repeated reaction fails it once.
 */
@Injectable()
export class BoxGoneReactor implements Reactor, OnModuleInit {
  readonly name = 'agent_box_gone';
  readonly handles = ['BoxFailed', 'BoxDestroyed', 'BoxProcessesLost'];

  constructor(
    private readonly reactors: Reactors,
    private readonly dispatcher: TurnDispatcher,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  onModuleInit(): void {
    this.reactors.register(this);
  }

  async react(event: RecordedEvent): Promise<void> {
    const gone = event as BoxGone;
    const { sessionId } = gone.data;
    // An old event caught up on after a restart: a box provisioned since runs its own turns.
    const status = sessionDetailsQueries(this.readModels).get(sessionId)?.box?.status;
    if (status !== 'failed' && status !== 'destroyed' && status !== 'lost') return;
    await this.dispatcher.boxGone(sessionId, await this.why(gone));
  }

  private async why(event: BoxGone): Promise<string> {
    if (event.type === 'BoxDestroyed') return 'the box was destroyed';
    if (event.type === 'BoxProcessesLost')
      return `the box lost its processes: ${event.data.reason}`;
    // Failing right after being provisioned, never ready: the box could not start.
    const [before] = await this.store.readStream(event.streamName, {
      direction: 'backwards',
      fromRevision: Math.max(0, event.revision - 1),
      maxCount: 1,
    });
    const what = before?.type === 'BoxProvisioned' ? 'could not start' : 'failed';
    return `the box ${what}: ${event.data.reason}`;
  }
}
