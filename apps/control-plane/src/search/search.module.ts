import { Module } from '@nestjs/common';
import { SearchController } from './search.controller';

/** GET /api/search over the search read model (libs/projections' search.projection.ts). */
@Module({ controllers: [SearchController] })
export class SearchModule {}
