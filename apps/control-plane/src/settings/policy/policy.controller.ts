import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import {
  AGENT_TOOLS_POLICIES,
  SESSION_CREATION_POLICIES,
  type Actor,
  type AgentToolsPolicy,
  type SessionCreationPolicy,
} from '@sessionboxer/domain';
import { IsIn, IsOptional, ValidateIf } from 'class-validator';
import { RequestActor } from '../../auth';
import type { PolicyView } from '@sessionboxer/contracts';
import { PolicyService } from './policy.service';

export class SetPolicyDto {
  @ApiPropertyOptional({
    enum: AGENT_TOOLS_POLICIES,
    nullable: true,
    description: 'null follows the global default',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsIn(AGENT_TOOLS_POLICIES)
  agentTools?: AgentToolsPolicy | null;

  @ApiPropertyOptional({
    enum: SESSION_CREATION_POLICIES,
    nullable: true,
    description: 'null follows the global default',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsIn(SESSION_CREATION_POLICIES)
  sessionCreation?: SessionCreationPolicy | null;
}

/** A session's own sessionboxer policy (Advanced… / Session settings → MCP & connectors). */
@ApiTags('sessions')
@Controller('api/sessions/:id/policy')
export class PolicyController {
  constructor(private readonly policy: PolicyService) {}

  @Get()
  @ApiOperation({
    summary: "The session's own policy and the one in force (its own, else the global default)",
  })
  get(@Param('id') id: string): Promise<PolicyView> {
    return this.policy.view(id);
  }

  @Patch()
  @ApiOperation({
    summary:
      "Set the session's policy; null follows the global default. Applies from the agent's next turn",
  })
  set(
    @Param('id') id: string,
    @Body() dto: SetPolicyDto,
    @RequestActor() actor: Actor,
  ): Promise<PolicyView> {
    return this.policy.set(id, dto, actor);
  }
}
