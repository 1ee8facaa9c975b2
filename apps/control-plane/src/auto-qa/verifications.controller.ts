import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { VerificationRunDoc } from '@sessionboxer/projections';
import { SessionsService } from '../sessions';
import { Verifications } from './verifications.service';

/** A session's Auto QA runs, as the Auto QA pane shows them. */
@ApiTags('sessions')
@Controller('api/sessions/:id/verifications')
export class VerificationsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly verifications: Verifications,
  ) {}

  @Get()
  @ApiOperation({
    summary: "The session's Auto QA runs, oldest first, with their cases and every attempt",
  })
  list(@Param('id') id: string): VerificationRunDoc[] {
    this.sessions.get(id);
    return this.verifications.list(id);
  }
}
