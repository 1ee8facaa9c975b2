import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PROMPT_MAX_LENGTH } from '@sessionboxer/domain';

export class SendPromptDto {
  @ApiProperty({
    example: 'Run the backend tests and fix what fails',
    maxLength: PROMPT_MAX_LENGTH,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(PROMPT_MAX_LENGTH)
  text!: string;

  @ApiPropertyOptional({
    example: 'sonnet',
    description: 'The model for this turn and later ones; omitted: the conversation keeps its own',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[\w.:/@-]{1,200}$/, {
    message: 'model must be a model name such as sonnet or anthropic/claude-sonnet-4-5',
  })
  model?: string;
}

export class EditQueuedPromptDto {
  @ApiProperty({ maxLength: PROMPT_MAX_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(PROMPT_MAX_LENGTH)
  text!: string;
}
