import { Body, Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain/kernel';
import { DEFAULT_ORG_ID } from '@sessionboxer/domain/org';
import { RequestActor } from '../auth';
import { Environments } from './environments.service';
import { environmentsAnswer } from './tools/list_environments';

const org = (orgId: string) => (orgId === 'default' ? DEFAULT_ORG_ID : orgId);

/**
 * An org's secrets environments for a signed-in person (Settings → Environments and secrets):
 * the same rules and answers as create_environment / set_secret; values never come back.
 */
@ApiTags('sandboxes (people)')
@Controller('api/orgs/:orgId/environments')
export class EnvironmentsAdminController {
  constructor(private readonly environments: Environments) {}

  @Get()
  async list(@Param('orgId') orgId: string) {
    return environmentsAnswer(await this.environments.state(org(orgId)));
  }

  @Post()
  async create(
    @Param('orgId') orgId: string,
    @Body() body: { name?: unknown },
    @RequestActor() actor: Actor,
  ) {
    const args = { name: body?.name };
    return environmentsAnswer(
      await this.environments.execute(org(orgId), 'CreateEnvironment', args, actor),
    );
  }

  @Put(':environment/secrets/:name')
  async setSecret(
    @Param('orgId') orgId: string,
    @Param('environment') environment: string,
    @Param('name') name: string,
    @Body() body: { value?: unknown; products?: unknown },
    @RequestActor() actor: Actor,
  ) {
    const args = { environment, name, value: body?.value, products: body?.products };
    return environmentsAnswer(await this.environments.setSecret(org(orgId), args, actor));
  }
}
