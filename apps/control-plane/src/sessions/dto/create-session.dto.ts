import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
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
  REPO_NAME_MAX_LENGTH,
  REPO_NAME_PATTERN,
  SESSION_ENVIRONMENTS,
  SESSION_REPOS_MAX,
  STOP_REASON_MAX_LENGTH,
  TITLE_MAX_LENGTH,
  type SessionEnvironment,
} from '@sessionboxer/domain';

// The lists and limits are the domain's (the decider checks the same ones); here they answer with every
// wrong field at once, and they are the OpenAPI document's enums.
const oneOf = (field: string, allowed: readonly string[]) => ({
  message: `${field} must be one of ${allowed.join(', ')}`,
});

/**
 * A session's title as every route takes it (create, rename, fork): the domain's limit, in the
 * check and in the OpenAPI document alike.
 */
export function SessionTitle(api: ApiPropertyOptions = {}) {
  return applyDecorators(
    ApiProperty({ minLength: 1, maxLength: TITLE_MAX_LENGTH, ...api }),
    IsString(),
    IsNotEmpty(),
    MaxLength(TITLE_MAX_LENGTH),
  );
}

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
  @SessionTitle({ example: 'Backend tests' })
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

  @ApiPropertyOptional({
    type: [String],
    default: [],
    maxItems: SESSION_REPOS_MAX,
    description: "Names of Global settings' repositories, cloned into /workspace/<name>",
  })
  @IsOptional()
  @IsArray({ message: 'repos must be a list of repository names' })
  @ArrayMaxSize(SESSION_REPOS_MAX)
  @Matches(REPO_NAME_PATTERN, {
    each: true,
    message: `each of repos must be a repository name (1–${REPO_NAME_MAX_LENGTH} letters, digits, "_", "." or "-")`,
  })
  repos?: string[];
}

export class RenameSessionDto {
  @SessionTitle({ example: 'Backend tests, take 2' })
  title!: string;
}

export class StopSessionDto {
  @ApiPropertyOptional({ maxLength: STOP_REASON_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(STOP_REASON_MAX_LENGTH)
  reason?: string;
}

/** `GET /api/sidebar?archived=true` includes archived sessions. */
export class SidebarQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'], oneOf('archived', ['true', 'false']))
  archived?: 'true' | 'false';
}
