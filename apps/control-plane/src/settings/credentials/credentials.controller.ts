import { Body, Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { CREDENTIAL_VALUE_MAX_LENGTH, type Actor } from '@sessionboxer/domain';
import { RequestActor } from '../../auth';
import type { CredentialView } from '@sessionboxer/contracts';
import { CredentialsService } from './credentials.service';

export class SetCredentialDto {
  @ApiProperty({ example: 'sk-ant-…', maxLength: CREDENTIAL_VALUE_MAX_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(CREDENTIAL_VALUE_MAX_LENGTH)
  value!: string;
}

/**
 * Agents' credentials. Values go in and never come out: not in an answer, not in an event
 * (the log records only that one was set or cleared), not in settings_get.
 */
@ApiTags('settings')
@Controller('api/settings/credentials')
export class CredentialsController {
  constructor(private readonly credentials: CredentialsService) {}

  @Get()
  @ApiOperation({ summary: 'Which credentials are set (never their values)' })
  list(): CredentialView[] {
    return this.credentials.list();
  }

  @Put(':name')
  @ApiOperation({
    summary:
      'Set a credential: anthropicApiKey, claudeCodeOauthToken, openaiApiKey, openrouterApiKey',
  })
  set(
    @Param('name') name: string,
    @Body() body: SetCredentialDto,
    @RequestActor() actor: Actor,
  ): Promise<CredentialView> {
    return this.credentials.set(name, body.value, actor);
  }

  @Delete(':name')
  @ApiOperation({ summary: 'Clear a credential' })
  clear(@Param('name') name: string, @RequestActor() actor: Actor): Promise<CredentialView> {
    return this.credentials.clear(name, actor);
  }
}
