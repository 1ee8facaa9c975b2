import { Controller, Get, Inject, Param, ParseIntPipe, Post } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Snapshot, TurnSnapshot } from '@sessionboxer/contracts';
import type { Actor } from '@sessionboxer/domain';
import type { SnapshotResult } from '@sessionboxer/mcp-adapters';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { IdempotencyKey, RequestActor } from '../../auth';
import { requireSession } from '../../common/require-session';
import { READ_MODELS } from '../../infrastructure/tokens';
import { SnapshotsService } from './snapshots.service';
import { TurnSnapshots } from './turn-snapshots.service';

/** A session's snapshots of its box's workspace: list, take, revert. */
@ApiTags('sessions')
@Controller('api/sessions/:id/snapshots')
export class SnapshotsController {
  constructor(
    private readonly snapshots: SnapshotsService,
    private readonly turns: TurnSnapshots,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  @Get()
  @ApiOperation({ summary: "The session's snapshots, Snapshot 1 first" })
  listSnapshots(@Param('id') id: string): Snapshot[] {
    requireSession(this.readModels, id);
    return this.snapshots.list(id);
  }

  @Post()
  @ApiOperation({ summary: 'Take a snapshot of the workspace now (the Snapshot button)' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  takeSnapshot(
    @Param('id') id: string,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<SnapshotResult> {
    requireSession(this.readModels, id);
    return this.snapshots.take(id, actor, key ?? `person/${crypto.randomUUID()}`);
  }

  @Get('turns')
  @ApiOperation({ summary: "The snapshots taken automatically at each turn's end, turn 1 first" })
  listTurnSnapshots(@Param('id') id: string): TurnSnapshot[] {
    requireSession(this.readModels, id);
    return this.turns.list(id);
  }

  @Post('turns/:turn/revert')
  @ApiOperation({ summary: "Rewind: the session's workspace as it was when that turn ended" })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  rewind(
    @Param('id') id: string,
    @Param('turn', new ParseIntPipe({ errorHttpStatusCode: 400 })) turn: number,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<TurnSnapshot> {
    requireSession(this.readModels, id);
    return this.turns.rewind(id, turn, actor, key);
  }

  @Post(':snapshotId/revert')
  @ApiOperation({
    summary:
      "Put the session's workspace back as it was in a snapshot (a turn's too: that is a rewind)",
  })
  revert(
    @Param('id') id: string,
    @Param('snapshotId') snapshotId: string,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<Snapshot | TurnSnapshot> {
    requireSession(this.readModels, id);
    return this.snapshots.revert(id, snapshotId, actor, key);
  }
}
