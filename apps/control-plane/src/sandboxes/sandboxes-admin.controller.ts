import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DEFAULT_ORG_ID } from '@sessionboxer/domain/org';
import { Sandboxes } from './sandboxes.service';

/**
 * An org's sandboxes for a signed-in person (the web UI's Sandboxes page): the same answer
 * as sandbox_list. `default` names the installation's first org.
 */
@ApiTags('sandboxes (people)')
@Controller('api/orgs/:orgId/sandboxes')
export class SandboxesAdminController {
  constructor(private readonly sandboxes: Sandboxes) {}

  @Get()
  list(@Param('orgId') orgId: string, @Query('all') all?: string) {
    const id = orgId === 'default' ? DEFAULT_ORG_ID : orgId;
    const caller = { orgId: id, keyId: 'person', scopes: [] };
    return { sandboxes: this.sandboxes.list(caller, all === 'true', undefined) };
  }
}
