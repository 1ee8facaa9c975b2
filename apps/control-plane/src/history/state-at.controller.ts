import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { EventStore } from '@sessionboxer/event-store';
import {
  historyPoint,
  sessionStateAt,
  StateAtSnapshots,
  type SessionStateAt,
} from '@sessionboxer/projections';
import { EVENT_STORE } from '../infrastructure/tokens';

/** For auditors: a session as it was at a point, folded from the history, never read today. */
@ApiTags('events')
@Controller('api')
export class StateAtController {
  /** Folds kept every 1,000 events (128 MB at most): a later question folds on from there. */
  private readonly snapshots = new StateAtSnapshots(1000, 128 << 20);

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  @Get('sessions/:id/at')
  @ApiOperation({
    summary:
      "A session's state (aggregate and details) and whole transcript as they were at a global position or a time (exactly one)",
  })
  @ApiQuery({ name: 'position', required: false, description: 'A global position, inclusive' })
  @ApiQuery({ name: 'time', required: false, description: 'ISO-8601: events recorded up to it' })
  async at(
    @Param('id') id: string,
    @Query('position') position?: string,
    @Query('time') time?: string,
  ): Promise<SessionStateAt> {
    const point = historyPoint(position, time);
    const state = await sessionStateAt(this.store, id, point, this.snapshots);
    if (state.session.status === 'absent') {
      const where = 'position' in point ? `position ${point.position}` : point.time;
      throw new DomainError(ErrorCode.NotFound, `session ${id} did not exist at ${where}`);
    }
    return state;
  }
}
