import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain';
import { IsOptional } from 'class-validator';
import { IdempotencyKey, RequestActor } from '../auth';
import type { SessionView } from '@sessionboxer/contracts';
import { SessionTitle } from './dto/create-session.dto';
import { SessionsService } from './sessions.service';

export class ForkSnapshotDto {
  @SessionTitle({
    required: false,
    description: "The new session's title; by default the session's own with “(fork)”",
  })
  @IsOptional()
  title?: string;
}

/** A snapshot's Fork button: a new session that starts with the snapshot's files. */
@ApiTags('sessions')
@Controller('api/sessions/:id/snapshots/:snapshotId/fork')
export class SnapshotForkController {
  constructor(private readonly sessions: SessionsService) {}

  @Post()
  @ApiOperation({
    summary:
      "Fork a new session from a snapshot: same provider, model and environment, the snapshot's files in its workspace",
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Repeating a request with the same key returns its first result',
  })
  fork(
    @Param('id') id: string,
    @Param('snapshotId') snapshotId: string,
    @Body() dto: ForkSnapshotDto,
    @RequestActor() actor: Actor,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<SessionView> {
    return this.sessions.fork(id, snapshotId, dto.title, { actor, idempotencyKey });
  }
}
