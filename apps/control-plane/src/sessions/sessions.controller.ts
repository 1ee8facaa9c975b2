import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain';
import type { SessionView, SidebarNode, TranscriptPage } from '@sessionboxer/contracts';
import { AfterQueryDto } from '../common/paging.dto';
import { IdempotencyKey, RequestActor } from '../auth';
import {
  CreateSessionDto,
  RenameSessionDto,
  SidebarQueryDto,
  StopSessionDto,
} from './dto/create-session.dto';
import { SessionsService } from './sessions.service';

const idempotencyHeader = {
  name: 'Idempotency-Key',
  required: false,
  description: 'Repeating a request with the same key returns its first result and changes nothing',
};

/** Sessions for people and operators: create, list, rename, stop, resume, archive, delete, transcript. */
@ApiTags('sessions')
@Controller('api')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Post('sessions')
  @ApiOperation({ summary: 'Create a session' })
  @ApiHeader(idempotencyHeader)
  create(
    @Body() dto: CreateSessionDto,
    @RequestActor() actor: Actor,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<SessionView> {
    return this.sessions.create(dto, { actor, idempotencyKey });
  }

  @Get('sessions')
  @ApiOperation({ summary: 'Every session, in the order they were created' })
  list(): SessionView[] {
    return this.sessions.list();
  }

  @Get('sidebar')
  @ApiOperation({
    summary:
      'The sidebar tree: sessions with their children nested ("child of …"); archived ones only with ?archived=true',
  })
  sidebar(@Query() q: SidebarQueryDto): SidebarNode[] {
    return this.sessions.tree({ archived: q.archived === 'true' });
  }

  @Get('sessions/:id')
  @ApiOperation({ summary: 'One session' })
  get(@Param('id') id: string): SessionView {
    return this.sessions.get(id);
  }

  @Patch('sessions/:id')
  @ApiOperation({ summary: 'Rename a session' })
  @ApiHeader(idempotencyHeader)
  rename(
    @Param('id') id: string,
    @Body() dto: RenameSessionDto,
    @RequestActor() actor: Actor,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<SessionView> {
    return this.sessions.rename(id, dto.title, { actor, idempotencyKey });
  }

  @Post('sessions/:id/stop')
  @HttpCode(200)
  @ApiOperation({ summary: 'Stop a session (it can be resumed)' })
  @ApiHeader(idempotencyHeader)
  stop(
    @Param('id') id: string,
    @Body() dto: StopSessionDto,
    @RequestActor() actor: Actor,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<SessionView> {
    return this.sessions.stop(id, dto.reason, { actor, idempotencyKey });
  }

  @Post('sessions/:id/resume')
  @HttpCode(200)
  @ApiOperation({ summary: 'Resume a stopped session' })
  @ApiHeader(idempotencyHeader)
  resume(
    @Param('id') id: string,
    @RequestActor() actor: Actor,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<SessionView> {
    return this.sessions.resume(id, { actor, idempotencyKey });
  }

  @Post('sessions/:id/archive')
  @HttpCode(200)
  @ApiOperation({ summary: "Archive a session: hidden from the sidebar's default view" })
  archive(@Param('id') id: string, @RequestActor() actor: Actor): Promise<SessionView> {
    return this.sessions.setArchived(id, true, { actor });
  }

  @Post('sessions/:id/unarchive')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unarchive a session' })
  unarchive(@Param('id') id: string, @RequestActor() actor: Actor): Promise<SessionView> {
    return this.sessions.setArchived(id, false, { actor });
  }

  @Delete('sessions/:id')
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Delete a stopped session (409 while it runs): its box and snapshots go, its history stays',
  })
  remove(@Param('id') id: string, @RequestActor() actor: Actor): Promise<void> {
    return this.sessions.delete(id, { actor });
  }

  @Get('sessions/:id/transcript')
  @ApiOperation({
    summary:
      "A session's transcript: its agent's conversation and the action markers, oldest first, paged by position",
  })
  transcript(@Param('id') id: string, @Query() q: AfterQueryDto): TranscriptPage {
    return this.sessions.transcript(id, q.after, q.limit);
  }
}
