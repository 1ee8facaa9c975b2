import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import {
  BRANCH_NAME_MAX_LENGTH,
  CLONE_URL_MAX_LENGTH,
  REPO_NAME_MAX_LENGTH,
  REPO_NAME_PATTERN,
} from '@sessionboxer/domain';

// The limits are the domain's (its decider checks the same, and the URL's and branch's finer
// rules); here every wrong field is named at once.

export class UpdateRepositoryDto {
  @ApiPropertyOptional({
    example: 'https://github.com/octo/app.git',
    maxLength: CLONE_URL_MAX_LENGTH,
  })
  @IsOptional()
  @IsString()
  @MaxLength(CLONE_URL_MAX_LENGTH)
  @Matches(/^https?:\/\//, { message: 'cloneUrl must be an https:// (or http://) URL' })
  cloneUrl?: string;

  @ApiPropertyOptional({ example: 'main', default: 'main', maxLength: BRANCH_NAME_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(BRANCH_NAME_MAX_LENGTH)
  defaultBranch?: string;
}

export class AddRepositoryDto extends UpdateRepositoryDto {
  @ApiProperty({
    example: 'app',
    description: 'Its folder under /workspace: letters, digits, "_", "." and "-"',
    maxLength: REPO_NAME_MAX_LENGTH,
  })
  @IsString()
  @Matches(REPO_NAME_PATTERN, {
    message: `name must be 1–${REPO_NAME_MAX_LENGTH} letters, digits, "_", "." or "-", not starting with "." or "-"`,
  })
  name!: string;

  @ApiProperty({ example: 'https://github.com/octo/app.git', maxLength: CLONE_URL_MAX_LENGTH })
  @IsString()
  @MaxLength(CLONE_URL_MAX_LENGTH)
  @Matches(/^https?:\/\//, { message: 'cloneUrl must be an https:// (or http://) URL' })
  declare cloneUrl: string;
}
