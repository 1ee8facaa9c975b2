import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  sessionDecider,
  sessionStream,
  type Actor,
} from '@sessionboxer/domain';
import type { TurnSnapshot } from '@sessionboxer/contracts';
import { deterministicUuid } from '@sessionboxer/event-store';
import type { SnapshotResult } from '@sessionboxer/mcp-adapters';
import {
  snapshotQueries,
  type SnapshotDoc,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { BoxLifecycle } from '../lifecycle/box-lifecycle.service';
import { boxPaths } from '../lifecycle/box-paths';
import type { AppConfig } from '../../config';
import { CommandBus } from '../../infrastructure/command-bus';
import { APP_CONFIG, READ_MODELS } from '../../infrastructure/tokens';
import { SnapshotStore } from './snapshot-store';
import { TurnSnapshots } from './turn-snapshots.service';

/** Snapshots of a session (its workspace, numbered), taken by its agent or a person, and reverts. */
@Injectable()
export class SnapshotsService {
  private readonly files: SnapshotStore;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly bus: CommandBus,
    private readonly boxes: BoxLifecycle,
    private readonly turns: TurnSnapshots,
  ) {
    this.files = new SnapshotStore((id) => boxPaths(config.dataDir, id));
  }

  private get dataDir(): string {
    return this.config.dataDir;
  }

  /** `key` names the request (a box call, an Idempotency-Key): repeated, it is one snapshot. */
  async take(sessionId: string, actor: Actor, key: string): Promise<SnapshotResult> {
    const snapshotId = deterministicUuid(`snapshot/${sessionId}/${key}`);
    const existing = this.get(sessionId, snapshotId);
    if (existing) return toResult(existing);
    const { sizeBytes } = await this.files.take(sessionId, snapshotId);
    const result = await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'TakeSnapshot',
      data: { sessionId, snapshotId, sizeBytes, conversationPosition: null },
      metadata: this.bus.metadata(actor, `${key}/snapshot`),
    });
    const taken = result.events.find((e) => e.type === 'SnapshotTaken');
    if (!taken)
      throw new DomainError(ErrorCode.Conflict, 'the snapshot was not recorded; try again');
    return toResult(this.get(sessionId, snapshotId) as SnapshotDoc);
  }

  /** A snapshot of either kind: taken (Snapshot n) or a turn's (a fork or revert names either). */
  has(sessionId: string, snapshotId: string): boolean {
    return (
      this.get(sessionId, snapshotId) !== null || this.turns.byId(sessionId, snapshotId) !== null
    );
  }

  /** A fork starts with the snapshot's files in its own workspace, before its box starts. */
  async seed(fromSessionId: string, snapshotId: string, toSessionId: string): Promise<void> {
    const workspace = boxPaths(this.dataDir, toSessionId).workspace;
    if (this.turns.byId(fromSessionId, snapshotId)) {
      return this.turns.seed(fromSessionId, snapshotId, workspace);
    }
    if (!this.get(fromSessionId, snapshotId)) {
      throw new DomainError(
        ErrorCode.NotFound,
        `session ${fromSessionId} has no snapshot ${snapshotId} to fork from`,
      );
    }
    return this.files.copyInto(fromSessionId, snapshotId, workspace);
  }

  list(sessionId: string): SnapshotDoc[] {
    return snapshotQueries(this.readModels).list(sessionId);
  }

  /** Puts the workspace back as it was in the snapshot, with the box frozen meanwhile. */
  async revert(
    sessionId: string,
    snapshotId: string,
    actor: Actor,
    key: string | undefined,
  ): Promise<SnapshotDoc | TurnSnapshot> {
    const ofTurn = this.turns.byId(sessionId, snapshotId);
    if (ofTurn) return this.turns.rewind(sessionId, ofTurn.turn, actor, key);
    const snapshot = this.get(sessionId, snapshotId);
    if (!snapshot)
      throw new DomainError(
        ErrorCode.NotFound,
        `session ${sessionId} has no snapshot ${snapshotId}`,
      );
    await this.boxes.freeze(sessionId);
    try {
      await this.files.restore(sessionId, snapshotId);
    } finally {
      await this.boxes.thaw(sessionId);
    }
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'RevertToSnapshot',
      data: { sessionId, snapshotId },
      metadata: this.bus.metadata(actor, key),
    });
    return snapshot;
  }

  private get(sessionId: string, snapshotId: string): SnapshotDoc | null {
    return snapshotQueries(this.readModels).get(sessionId, snapshotId);
  }
}

function toResult(s: SnapshotDoc): SnapshotResult {
  return { id: s.id, ordinal: s.ordinal, sizeBytes: s.sizeBytes, createdAt: s.createdAt };
}
