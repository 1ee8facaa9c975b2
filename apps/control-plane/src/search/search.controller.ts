import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { SearchPage } from '@sessionboxer/contracts';
import { DomainError, ErrorCode, type Actor } from '@sessionboxer/domain';
import { searchQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { RequestActor } from '../auth';
import { READ_MODELS } from '../infrastructure/tokens';
import { SearchQueryDto } from './search-query.dto';

/** Search over every session's title and transcript, for a signed-in person. */
@ApiTags('search')
@Controller('api/search')
export class SearchController {
  constructor(@Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore) {}

  @Get()
  @ApiOperation({
    summary: 'Sessions and transcript entries matching plain words, best first (bm25)',
  })
  search(@Query() query: SearchQueryDto, @RequestActor() actor: Actor): SearchPage {
    if (actor.kind !== 'person') {
      throw new DomainError(ErrorCode.Forbidden, 'only a signed-in person can search');
    }
    const { q, limit, includeArchived } = query;
    const results = searchQueries(this.readModels).search({
      q,
      limit,
      includeArchived: includeArchived === 'true',
    });
    return { results };
  }
}
