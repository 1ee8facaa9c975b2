import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_PAGE = 1000;

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

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  limit?: number;

  @ApiPropertyOptional({ enum: ['forwards', 'backwards'], default: 'forwards' })
  @IsOptional()
  @IsIn(['forwards', 'backwards'])
  direction?: 'forwards' | 'backwards';
}

/** `?after=&limit=` for read models ordered by global position; `after` is exclusive. */
export class AfterQueryDto {
  @ApiPropertyOptional({ minimum: -1, description: 'Return items after this position' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(-1)
  after?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  limit?: number;
}
