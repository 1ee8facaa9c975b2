import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain';
import type { SnapshotResult } from '@sessionboxer/mcp-adapters';
import type {
  NotificationPage,
  PrWithItems,
  Recording,
  SessionView,
  Snapshot,
} from '@sessionboxer/contracts';
import { recordingQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { READ_MODELS } from '../infrastructure/tokens';
import { AfterQueryDto } from '../common/paging.dto';
import { IdempotencyKey, RequestActor } from '../common/request-actor';
import { PullRequests } from '../pull-requests/pull-requests.service';
import { SnapshotsService } from '../boxes/snapshots/snapshots.service';
import { SessionsService } from './sessions.service';
import { BoxLifecycle } from '../boxes/lifecycle/box-lifecycle.service';

/** What belongs to one session: its snapshots, PRs and notifications. */
@ApiTags('sessions')
@Controller('api/sessions/:id')
export class SessionBoxController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly snapshots: SnapshotsService,
    private readonly prs: PullRequests,
    private readonly boxes: BoxLifecycle,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  @Get('snapshots')
  @ApiOperation({ summary: "The session's snapshots, Snapshot 1 first" })
  listSnapshots(@Param('id') id: string): Snapshot[] {
    this.sessions.get(id);
    return this.snapshots.list(id);
  }

  @Post('snapshots')
  @ApiOperation({ summary: 'Take a snapshot of the workspace now (the Snapshot button)' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  takeSnapshot(
    @Param('id') id: string,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<SnapshotResult> {
    this.sessions.get(id);
    return this.snapshots.take(id, actor, key ?? `person/${crypto.randomUUID()}`);
  }

  @Post('snapshots/:snapshotId/revert')
  @ApiOperation({ summary: "Put the session's workspace back as it was in a snapshot" })
  revert(
    @Param('id') id: string,
    @Param('snapshotId') snapshotId: string,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<Snapshot> {
    this.sessions.get(id);
    return this.snapshots.revert(id, snapshotId, actor, key);
  }

  @Post('box/destroy')
  @HttpCode(200)
  @ApiOperation({
    summary: "Destroy the session's box: processes killed, workspace and snapshots removed",
  })
  async destroyBox(@Param('id') id: string): Promise<SessionView> {
    this.sessions.get(id);
    await this.boxes.destroy(id);
    return this.sessions.get(id);
  }

  @Get('prs')
  @ApiOperation({ summary: 'The PRs attached to the session, with their checks and review items' })
  listPrs(@Param('id') id: string): PrWithItems[] {
    this.sessions.get(id);
    return this.prs.listWithItems(id);
  }

  @Get('recordings')
  @ApiOperation({ summary: "The session's recordings of its desktop, with captions as steps" })
  recordings(@Param('id') id: string): Recording[] {
    this.sessions.get(id);
    return recordingQueries(this.readModels).list(id);
  }

  @Get('notifications')
  @ApiOperation({ summary: "The session's notifications (the bell), oldest first" })
  notifications(@Param('id') id: string, @Query() q: AfterQueryDto): NotificationPage {
    return this.sessions.notifications(id, q.after, q.limit);
  }
}
