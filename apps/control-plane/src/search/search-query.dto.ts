import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX } from '@sessionboxer/projections';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/** Longer is no search anyone types; it would only cost time. */
export const SEARCH_QUERY_MAX = 200;

/** `?q=&limit=&includeArchived=` of GET /api/search. */
export class SearchQueryDto {
  @ApiProperty({
    maxLength: SEARCH_QUERY_MAX,
    description: 'Plain words (no search syntax), all required; the last one also as a prefix',
  })
  @IsString({ message: 'q must be one text (give it once)' })
  @MaxLength(SEARCH_QUERY_MAX, { message: `q must be at most ${SEARCH_QUERY_MAX} characters` })
  @Matches(/\S/, { message: 'q must not be empty' })
  q!: string;

  @ApiPropertyOptional({ minimum: 1, maximum: SEARCH_LIMIT_MAX, default: SEARCH_LIMIT_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `limit must be a whole number from 1 to ${SEARCH_LIMIT_MAX}` })
  @Min(1, { message: `limit must be a whole number from 1 to ${SEARCH_LIMIT_MAX}` })
  @Max(SEARCH_LIMIT_MAX, { message: `limit must be a whole number from 1 to ${SEARCH_LIMIT_MAX}` })
  limit?: number;

  @ApiPropertyOptional({ enum: ['true', 'false'], default: 'false' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'includeArchived must be one of true, false' })
  includeArchived?: 'true' | 'false';
}
