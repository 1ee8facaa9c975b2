import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';
import { PagingQueryDto } from '../common/paging.dto';
import { EVENT_STORE } from '../infrastructure/tokens';

/** A page of history; `next` is where the following page starts, null at the end. */
export interface EventPage {
  events: RecordedEvent[];
  next: number | null;
}

const STREAM_NAME = /^[a-z][a-z0-9_]*-[A-Za-z0-9_.:-]{1,200}$/;

/** The raw event history, for auditors: `$all` or one stream, paged. Read-only. */
@ApiTags('events')
@Controller('api')
export class EventsController {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  @Get('events')
  @ApiOperation({ summary: 'Read $all in global order, paged by position' })
  async readAll(@Query() q: PagingQueryDto): Promise<EventPage> {
    const limit = q.limit ?? 100;
    const direction = q.direction ?? 'forwards';
    const events = await this.store.readAll({
      direction,
      fromPosition: q.from ?? (direction === 'forwards' ? 'start' : 'end'),
      maxCount: limit + 1,
    });
    return page(events, limit, (e) => e.position);
  }

  @Get('streams/:stream/events')
  @ApiOperation({ summary: 'Read one stream (e.g. session-<id>), paged by revision' })
  async readStream(
    @Param('stream') stream: string,
    @Query() q: PagingQueryDto,
  ): Promise<EventPage> {
    if (!STREAM_NAME.test(stream)) {
      throw new DomainError(
        ErrorCode.ValidationFailed,
        `stream must be a category-id stream name such as session-<id>, got ${JSON.stringify(stream)}`,
      );
    }
    const limit = q.limit ?? 100;
    const direction = q.direction ?? 'forwards';
    const events = await this.store.readStream(stream, {
      direction,
      fromRevision: q.from ?? (direction === 'forwards' ? 'start' : 'end'),
      maxCount: limit + 1,
    });
    return page(events, limit, (e) => e.revision);
  }
}

function page(
  events: RecordedEvent[],
  limit: number,
  key: (e: RecordedEvent) => number,
): EventPage {
  const more = events.length > limit;
  const shown = more ? events.slice(0, limit) : events;
  return { events: shown, next: more ? key(events[limit]) : null };
}
