import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { isPlainObject, onlyKeys } from '@sessionboxer/domain/kernel/validation';
import type { EventStore } from '@sessionboxer/event-store';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { requireSession } from '../common/require-session';
import { EVENT_STORE, READ_MODELS } from '../infrastructure/tokens';
import { candidatePolicy, replayPolicy, type ReplayReport } from './policy-replay';

/** For auditors: what a candidate policy would have refused of the recorded history. */
@ApiTags('events')
@Controller('api/audit')
export class PolicyReplayController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  @Post('policy-replay')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Every recorded sessionboxer tool call and egress connection (of one session, or all) that a candidate policy {agentTools, sessionCreation, egressAllow} would have refused, and why',
  })
  async replay(@Body() body: unknown): Promise<ReplayReport> {
    if (!isPlainObject(body)) {
      throw new DomainError(ErrorCode.ValidationFailed, 'the body must be {policy, sessionId?}');
    }
    onlyKeys(body, '', ['policy', 'sessionId']);
    const policy = candidatePolicy(body.policy);
    const sessionId = body.sessionId ?? null;
    if (sessionId !== null && typeof sessionId !== 'string') {
      throw new DomainError(ErrorCode.ValidationFailed, 'sessionId must be a session id', {
        field: 'sessionId',
      });
    }
    if (sessionId !== null) requireSession(this.readModels, sessionId);
    return replayPolicy(this.store, policy, sessionId);
  }
}
