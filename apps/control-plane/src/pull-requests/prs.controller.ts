import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { PrWithItems } from '@sessionboxer/contracts';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { requireSession } from '../common/require-session';
import { READ_MODELS } from '../infrastructure/tokens';
import { PullRequests } from './pull-requests.service';

/** The PRs attached to a session (the PRs pane). */
@ApiTags('sessions')
@Controller('api/sessions/:id/prs')
export class PrsController {
  constructor(
    private readonly prs: PullRequests,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The PRs attached to the session, with their checks and review items' })
  listPrs(@Param('id') id: string): PrWithItems[] {
    requireSession(this.readModels, id);
    return this.prs.listWithItems(id);
  }
}
