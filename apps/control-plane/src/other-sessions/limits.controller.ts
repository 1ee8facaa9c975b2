import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import {
  limitQueries,
  sidebarQueries,
  type LimitDoc,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { READ_MODELS } from '../infrastructure/tokens';

/** The limits of agent-created sessions, as they stand (the write side enforces them). */
@ApiTags('sessions')
@Controller('api/sessions/:id/limits')
export class LimitsController {
  constructor(@Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore) {}

  @Get()
  @ApiOperation({
    summary: "This session's agent's alive children (3 at most) and the global cap's use",
  })
  get(@Param('id') id: string): { children: LimitDoc; global: LimitDoc } {
    if (!sidebarQueries(this.readModels).get(id)) {
      throw new DomainError(ErrorCode.NotFound, `session ${id} does not exist`);
    }
    const q = limitQueries(this.readModels);
    return { children: q.children(id), global: q.global() };
  }
}
