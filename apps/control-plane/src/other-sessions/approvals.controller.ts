import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain';
import { RequestActor } from '../auth';
import type { Approval } from '@sessionboxer/contracts';
import { AnswerApprovalDto } from './answer-approval.dto';
import { Approvals } from './approvals.service';

/** Approval cards for people: what agents asked, and Allow / Deny. */
@ApiTags('approvals')
@Controller('api')
export class ApprovalsController {
  constructor(private readonly approvals: Approvals) {}

  @Get('sessions/:id/approvals')
  @ApiOperation({
    summary: "A session's approval cards (pending past their deadline read expired)",
  })
  list(@Param('id') id: string): Approval[] {
    return this.approvals.list(id);
  }

  @Post('approvals/:id/allow')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Allow: the action is performed now and its result recorded on the card',
  })
  allow(
    @Param('id') id: string,
    @Body() body: AnswerApprovalDto,
    @RequestActor() actor: Actor,
  ): Promise<Approval> {
    return this.approvals.answer(id, true, actor, body.reason ?? null);
  }

  @Post('approvals/:id/deny')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deny the card, with an optional reason kept on it' })
  deny(
    @Param('id') id: string,
    @Body() body: AnswerApprovalDto,
    @RequestActor() actor: Actor,
  ): Promise<Approval> {
    return this.approvals.answer(id, false, actor, body.reason ?? null);
  }
}
