import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DEFAULT_ORG_ID } from '@sessionboxer/domain/org';
import { SandboxAgents } from './sandbox-agents';
import { Sandboxes } from './sandboxes.service';

/**
 * An org's sandboxes for a signed-in person (the web UI's Sandboxes page): the same answer
 * as sandbox_list, and a sandbox's agent conversations as transcripts. `default` names the
 * installation's first org.
 */
@ApiTags('sandboxes (people)')
@Controller('api/orgs/:orgId/sandboxes')
export class SandboxesAdminController {
  constructor(
    private readonly sandboxes: Sandboxes,
    private readonly agents: SandboxAgents,
  ) {}

  @Get()
  list(@Param('orgId') orgId: string, @Query('all') all?: string) {
    return { sandboxes: this.sandboxes.list(person(orgId), all === 'true', undefined) };
  }

  /** As agent_conversations without conversation. */
  @Get(':sandbox/conversations')
  conversations(@Param('orgId') orgId: string, @Param('sandbox') sandbox: string) {
    return this.agents.conversationsOf(person(orgId), { sandbox });
  }

  /** A conversation's events with who sent each prompt (what the transcript shows). */
  @Get(':sandbox/conversations/:conversation')
  transcript(
    @Param('orgId') orgId: string,
    @Param('sandbox') sandbox: string,
    @Param('conversation') conversation: string,
    @Query('after') after?: string,
  ) {
    const from = Number(after ?? 0);
    return this.agents.transcript(
      person(orgId),
      sandbox,
      conversation,
      Number.isInteger(from) && from >= 0 ? from : 0,
    );
  }
}

function person(orgId: string) {
  return { orgId: orgId === 'default' ? DEFAULT_ORG_ID : orgId, keyId: 'person', scopes: [] };
}
