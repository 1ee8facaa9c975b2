import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import {
  HARNESS_NAMES,
  MODEL_NAME,
  SESSION_ENVIRONMENTS,
  type SessionEnvironment,
} from '@sessionboxer/domain';

// The lists are the domain's (the decider checks the same ones); here they answer with every
// wrong field at once, and they are the OpenAPI document's enums.
const oneOf = (field: string, allowed: readonly string[]) => ({
  message: `${field} must be one of ${allowed.join(', ')}`,
});

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

  @ApiPropertyOptional({
    enum: HARNESS_NAMES,
    default: 'claude-code',
    description: 'The harness that runs the agent (scripted: a script, no model)',
  })
  @IsOptional()
  @IsIn(HARNESS_NAMES, oneOf('provider', HARNESS_NAMES))
  provider?: string;

  @ApiPropertyOptional({ example: 'claude-sonnet-4-5', default: 'default' })
  @IsOptional()
  @IsString()
  @Matches(MODEL_NAME, {
    message: 'model must be a model name such as sonnet or anthropic/claude-sonnet-4-5',
  })
  model?: string;

  @ApiPropertyOptional({ enum: SESSION_ENVIRONMENTS, default: 'docker-linux' })
  @IsOptional()
  @IsIn(SESSION_ENVIRONMENTS, oneOf('environment', SESSION_ENVIRONMENTS))
  environment?: SessionEnvironment;

  @ApiPropertyOptional({ type: ForkedFromDto })
  @IsOptional()
  // ValidateNested alone takes a list too (an empty one checks nothing).
  @IsObject({ message: 'forkedFrom must be { sessionId, snapshotId }' })
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
