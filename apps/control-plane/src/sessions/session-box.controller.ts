import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { NotificationPage, Recording, SessionView } from '@sessionboxer/contracts';
import { recordingQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { READ_MODELS } from '../infrastructure/tokens';
import { AfterQueryDto } from '../common/paging.dto';
import { SessionsService } from './sessions.service';
import { BoxLifecycle } from '../boxes';

/** What belongs to one session beside its transcript: its box's end, recordings, the bell. */
@ApiTags('sessions')
@Controller('api/sessions/:id')
export class SessionBoxController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly boxes: BoxLifecycle,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

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
