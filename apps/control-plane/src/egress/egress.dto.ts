import { ApiProperty } from '@nestjs/swagger';
import {
  EGRESS_ALLOW_LIST_MAX,
  EGRESS_PATTERN_MAX_LENGTH,
  SESSION_EGRESS_MODES,
  type SessionEgressMode,
} from '@sessionboxer/domain';
import { ArrayMaxSize, IsArray, IsIn, IsString, MaxLength } from 'class-validator';

/** The syntax of each entry (host:port, *.suffix:port) is the domain's to check and name. */
export class SetEgressPolicyDto {
  @ApiProperty({
    type: [String],
    maxItems: EGRESS_ALLOW_LIST_MAX,
    example: ['api.anthropic.com:443', '*.githubusercontent.com:443', 'deb.debian.org:80'],
  })
  @IsArray()
  @ArrayMaxSize(EGRESS_ALLOW_LIST_MAX)
  @IsString({ each: true })
  @MaxLength(EGRESS_PATTERN_MAX_LENGTH, { each: true })
  allow!: string[];
}

export class SetSessionEgressDto extends SetEgressPolicyDto {
  @ApiProperty({
    enum: SESSION_EGRESS_MODES,
    description: 'inherit the global list, extend it with `allow`, or replace it with `allow`',
  })
  @IsIn(SESSION_EGRESS_MODES)
  mode!: SessionEgressMode;
}
