import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { READ_MODELS } from '../infrastructure/tokens';
import type { SessionLimits } from '@sessionboxer/contracts';
import { sessionLimits } from './session-limits';

/** The limits of agent-created sessions, as they stand (the write side enforces them). */
@ApiTags('sessions')
@Controller('api/sessions/:id/limits')
export class LimitsController {
  constructor(@Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore) {}

  @Get()
  @ApiOperation({
    summary: "This session's agent's alive children (3 at most) and the global cap's use",
  })
  get(@Param('id') id: string): SessionLimits {
    return sessionLimits(this.readModels, id);
  }
}
