import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Actor, TurnFinished } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import {
  sidebarQueries,
  type ReactionContext,
  type Reactor,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import type { AppConfig } from '../../config';
import { Reactors } from '../../infrastructure/reactors';
import { APP_CONFIG, READ_MODELS } from '../../infrastructure/tokens';
import { TurnSnapshots } from './turn-snapshots.service';

const SYSTEM: Actor = { kind: 'system', id: 'turn-snapshots' };

/**
 * The reaction to a turn's end (`TurnFinished`, whatever its status): a snapshot of the
 * session's workspace, so a person can fork or rewind from any turn. The snapshot id and the
 * command key come from the session and the turn, so a reaction delivered again records
 * nothing twice. Sessions without snapshots (Windows, macOS) and without a box are skipped.
 */
@Injectable()
export class TurnSnapshotsReactor implements Reactor, OnModuleInit {
  readonly name = 'snapshot_after_turn';
  readonly handles = ['TurnFinished'];

  constructor(
    private readonly reactors: Reactors,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly snapshots: TurnSnapshots,
  ) {}

  onModuleInit(): void {
    if (this.config.boxes) this.reactors.register(this);
  }

  async react(event: RecordedEvent, ctx: ReactionContext): Promise<void> {
    const { conversationId: sessionId, turn } = (event as RecordedEvent & TurnFinished).data;
    // A session's own conversation has its id; another owner's (a sandbox's) has no session.
    const session = sidebarQueries(this.readModels).get(sessionId);
    if (session?.environment !== 'docker-linux') return;
    await this.snapshots.take(sessionId, turn, event.position, SYSTEM, ctx.key());
  }
}
