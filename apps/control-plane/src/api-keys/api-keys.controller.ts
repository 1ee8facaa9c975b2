import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain/kernel';
import { DEFAULT_ORG_ID } from '@sessionboxer/domain/org';
import { RequestActor } from '../auth';
import { IdGenerator } from '../infrastructure/clock';
import { ApiKeys } from './api-keys.service';

/**
 * The admin API of orgs and API keys, for a signed-in person (the web UI's Settings use it).
 * A key is shown once, in the answer that made it.
 */
/** `default` names the org the installation started with (the web UI uses it). */
const org = (orgId: string) => (orgId === 'default' ? DEFAULT_ORG_ID : orgId);

@ApiTags('orgs and API keys')
@Controller('api/orgs')
export class ApiKeysController {
  constructor(
    private readonly keys: ApiKeys,
    private readonly ids: IdGenerator,
  ) {}

  @Post()
  createOrg(@Body() body: { name?: unknown }, @RequestActor() actor: Actor) {
    return this.keys.createOrg(this.ids.next(), body?.name, actor);
  }

  @Get(':orgId/api-keys')
  list(@Param('orgId') orgId: string) {
    return { apiKeys: this.keys.list(org(orgId)) };
  }

  @Post(':orgId/api-keys')
  create(
    @Param('orgId') orgId: string,
    @Body() body: { name?: unknown; scopes?: unknown },
    @RequestActor() actor: Actor,
  ) {
    return this.keys.create(org(orgId), body?.name, body?.scopes, actor);
  }

  @Delete(':orgId/api-keys/:keyId')
  @HttpCode(204)
  async revoke(
    @Param('orgId') orgId: string,
    @Param('keyId') keyId: string,
    @RequestActor() actor: Actor,
  ): Promise<void> {
    await this.keys.revoke(org(orgId), keyId, actor);
  }
}
