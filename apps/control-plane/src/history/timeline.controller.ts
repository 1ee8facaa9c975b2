import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import type { TimelineKind, TimelinePage } from '@sessionboxer/contracts';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import {
  TIMELINE_KINDS,
  timelineQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { AfterQueryDto } from '../common/paging.dto';
import { requireSession } from '../common/require-session';
import { READ_MODELS } from '../infrastructure/tokens';

export class TimelineQueryDto extends AfterQueryDto {
  @ApiPropertyOptional({
    description: `Comma-separated kinds to keep: ${TIMELINE_KINDS.join(', ')}`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  kinds?: string;

  @ApiPropertyOptional({
    description: 'Who caused it: person, agent, system, api-key, or one of them as kind:id',
  })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  @Matches(/^(person|agent|system|api-key)(:[^\s]+)?$/, {
    message: 'actor must be person, agent, system or api-key, optionally followed by :<id>',
  })
  actor?: string;
}

/** `?kinds=a,b`, each one the timeline knows, or the 400 that names the unknown ones. */
function parseKinds(kinds: string | undefined): TimelineKind[] | undefined {
  if (kinds === undefined || kinds.trim() === '') return undefined;
  const asked = kinds.split(',').map((k) => k.trim());
  const unknown = asked.filter((k) => !(TIMELINE_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    throw new DomainError(
      ErrorCode.ValidationFailed,
      `kinds: unknown ${unknown.map((k) => JSON.stringify(k)).join(', ')}; the kinds are ${TIMELINE_KINDS.join(', ')}`,
    );
  }
  return asked as TimelineKind[];
}

/** For auditors: one session's history across layers, in global order. */
@ApiTags('events')
@Controller('api/sessions/:id/timeline')
export class TimelineController {
  constructor(@Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore) {}

  @Get()
  @ApiOperation({
    summary:
      "A session's timeline: commands, turns and tool calls, markers, approvals, Terminals, recordings, snapshots, egress refusals and box lifecycle, in global order, filtered by kind and actor, paged by position",
  })
  timeline(@Param('id') id: string, @Query() q: TimelineQueryDto): TimelinePage {
    const kinds = parseKinds(q.kinds);
    requireSession(this.readModels, id);
    return timelineQueries(this.readModels).page(id, {
      kinds,
      actor: q.actor,
      after: q.after,
      limit: q.limit,
    });
  }
}
