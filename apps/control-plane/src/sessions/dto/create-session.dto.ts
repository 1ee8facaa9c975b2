import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

export const ENVIRONMENTS = ['docker-linux', 'qemu-windows', 'qemu-macos'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** The snapshot a session is forked from. */
export class ForkedFromDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  sessionId!: string;

  @ApiProperty({ description: 'Snapshot id within that session' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  snapshotId!: string;
}

export class CreateSessionDto {
  @ApiProperty({ example: 'Backend tests', minLength: 1, maxLength: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  title!: string;

  @ApiPropertyOptional({ example: 'claude-code', default: 'claude-code' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z][a-z0-9-]{0,39}$/, {
    message: 'provider must be a lower-case id such as claude-code',
  })
  provider?: string;

  @ApiPropertyOptional({ example: 'claude-sonnet-4-5', default: 'default' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  model?: string;

  @ApiPropertyOptional({ enum: ENVIRONMENTS, default: 'docker-linux' })
  @IsOptional()
  @IsIn(ENVIRONMENTS)
  environment?: Environment;

  @ApiPropertyOptional({ type: ForkedFromDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ForkedFromDto)
  forkedFrom?: ForkedFromDto;
}

export class RenameSessionDto {
  @ApiProperty({ example: 'Backend tests, take 2', minLength: 1, maxLength: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  title!: string;
}

export class StopSessionDto {
  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
