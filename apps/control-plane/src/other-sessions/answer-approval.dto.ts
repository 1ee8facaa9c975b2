import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { APPROVAL_REASON_MAX_LENGTH } from '@sessionboxer/domain';

/** Allow's and Deny's optional body: why (the domain checks the same limit, and for one line). */
export class AnswerApprovalDto {
  @ApiPropertyOptional({
    maxLength: APPROVAL_REASON_MAX_LENGTH,
    example: 'Not before the release is out',
  })
  @IsOptional()
  @IsString()
  @MaxLength(APPROVAL_REASON_MAX_LENGTH)
  reason?: string;
}
