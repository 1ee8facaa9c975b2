import { Body, Controller, Get, Inject, Param, Put } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain';
import type { EgressHostView, EgressPolicyView, SessionEgressView } from '@sessionboxer/contracts';
import { egressHostQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { IdempotencyKey, RequestActor } from '../auth';
import { requireSession } from '../common/require-session';
import { READ_MODELS } from '../infrastructure/tokens';
import { SetEgressPolicyDto, SetSessionEgressDto } from './egress.dto';
import { EgressPolicyService } from './egress-policy.service';

/** What boxes may reach (Global settings → Egress), per session too, and what they reached. */
@ApiTags('settings')
@Controller('api')
export class EgressController {
  constructor(
    private readonly policy: EgressPolicyService,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  @Get('settings/egress')
  @ApiOperation({ summary: 'The allow list every box gets (host:port, *.suffix:port)' })
  global(): Promise<EgressPolicyView> {
    return this.policy.global();
  }

  @Put('settings/egress')
  @ApiOperation({ summary: 'Replace the global allow list; applies to the next connection' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  setGlobal(
    @Body() dto: SetEgressPolicyDto,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<EgressPolicyView> {
    return this.policy.setGlobal(dto.allow, actor, key);
  }

  @Get('sessions/:id/egress')
  @ApiOperation({
    summary: "The session's own allow list (inherit, extend, replace) and the one in force",
  })
  session(@Param('id') id: string): Promise<SessionEgressView> {
    return this.policy.session(id);
  }

  @Put('sessions/:id/egress')
  @ApiOperation({ summary: "Set the session's own allow list; applies to its next connection" })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  setSession(
    @Param('id') id: string,
    @Body() dto: SetSessionEgressDto,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<SessionEgressView> {
    return this.policy.setSession(id, { mode: dto.mode, allow: dto.allow }, actor, key);
  }

  @Get('sessions/:id/egress/hosts')
  @ApiOperation({ summary: "The hosts the session's box reached through the proxy, with counts" })
  hosts(@Param('id') id: string): EgressHostView[] {
    requireSession(this.readModels, id);
    return egressHostQueries(this.readModels).list(id);
  }
}
