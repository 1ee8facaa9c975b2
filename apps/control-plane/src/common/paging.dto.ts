import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import type { Direction } from '@sessionboxer/event-store';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_PAGE = 1000;
/** The event store's read directions (the port's `Direction`), as the query names them. */
const DIRECTIONS = ['forwards', 'backwards'] as const satisfies readonly Direction[];

/** `?limit=`: one rule for every paged read, in the check and in the OpenAPI document. */
function PageLimit() {
  return applyDecorators(
    ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE, default: 100 }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(MAX_PAGE),
  );
}

/** `?from=&limit=&direction=` for every paged read; `from` is inclusive. */
export class PagingQueryDto {
  @ApiPropertyOptional({
    minimum: 0,
    description: 'Position or revision to start from (inclusive)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  from?: number;

  @PageLimit()
  limit?: number;

  @ApiPropertyOptional({ enum: DIRECTIONS, default: 'forwards' })
  @IsOptional()
  @IsIn(DIRECTIONS)
  direction?: Direction;
}

/** `?after=&limit=` for read models ordered by global position; `after` is exclusive. */
export class AfterQueryDto {
  @ApiPropertyOptional({ minimum: -1, description: 'Return items after this position' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(-1)
  after?: number;

  @PageLimit()
  limit?: number;
}
