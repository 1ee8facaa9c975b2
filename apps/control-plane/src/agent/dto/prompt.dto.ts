import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { MODEL_NAME, PROMPT_MAX_LENGTH } from '@sessionboxer/domain';

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
  @Matches(MODEL_NAME, {
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
