/**
 * Reads against EventStoreDB that need more than one call: `$all` without system events (the
 * client's readAll has no filter, so it pages and drops them), and a stream's tail.
 */
import {
  BACKWARDS,
  FORWARDS,
  type EventStoreDBClient,
  type AllStreamResolvedEvent,
} from '@eventstore/db-client';
import type { RecordedEvent } from '../event-store.port';
import type { ResolvedRead } from '../read-options';
import { fromResolvedEvent, rawPosition, toReadPosition } from './esdb-mapping';

const PAGE = 500;

async function readAllPage(
  client: EventStoreDBClient,
  forwards: boolean,
  from: number | 'start' | 'end',
  maxCount: number,
): Promise<AllStreamResolvedEvent[]> {
  const page: AllStreamResolvedEvent[] = [];
  const read = client.readAll({
    direction: forwards ? FORWARDS : BACKWARDS,
    fromPosition: toReadPosition(from),
    maxCount,
  });
  for await (const resolved of read) page.push(resolved);
  return page;
}

/**
 * `$all` from `read.from` (inclusive) in `read`'s direction, user events only, up to
 * `read.maxCount`. Pages restart from the last raw position seen and skip what was already
 * passed, so it does not matter whether the server counts a start position in or out.
 */
export async function readAllUserEvents(
  client: EventStoreDBClient,
  read: ResolvedRead,
): Promise<RecordedEvent[]> {
  const wanted = read.maxCount ?? Number.MAX_SAFE_INTEGER;
  const out: RecordedEvent[] = [];
  if (wanted === 0) return out;
  const { forwards } = read;
  const atEnd = read.from === Number.MAX_SAFE_INTEGER;
  const startsAtEnd = !forwards && atEnd;
  let from: number | 'start' | 'end' = atEnd
    ? 'end'
    : read.from === 0 && forwards
      ? 'start'
      : read.from;
  // Positions on the wrong side of this one were delivered already (or lie before the start).
  // Backwards, the event at the start itself is fetched on its own, so the pages skip it.
  let boundary = forwards ? read.from - 1 : startsAtEnd ? Number.MAX_SAFE_INTEGER : read.from;
  if (!forwards && !startsAtEnd) out.push(...(await eventAt(client, read.from)));
  for (;;) {
    const page = await readAllPage(client, forwards, from, PAGE);
    for (const resolved of page) {
      const position = rawPosition(resolved) ?? boundary;
      if (forwards ? position <= boundary : position >= boundary) continue;
      boundary = position;
      const event = fromResolvedEvent(resolved);
      if (event) out.push(event);
      if (out.length >= wanted) return out;
    }
    if (page.length < PAGE) return out;
    from = boundary;
  }
}

/** The user event exactly at `position`, if there is one (a backwards read may exclude it). */
async function eventAt(client: EventStoreDBClient, position: number): Promise<RecordedEvent[]> {
  const [resolved] = await readAllPage(client, true, position, 1);
  if (!resolved || rawPosition(resolved) !== position) return [];
  const event = fromResolvedEvent(resolved);
  return event ? [event] : [];
}

/** Position of the last user event in `$all`, -1 when there is none. */
export async function lastUserPosition(client: EventStoreDBClient): Promise<number> {
  const [last] = await readAllUserEvents(client, {
    forwards: false,
    from: Number.MAX_SAFE_INTEGER,
    maxCount: 1,
  });
  return last ? last.position : -1;
}

/**
 * The metadata of the last user event in `$all` as stored (with its `$chain` link, which the
 * port's events do not show), undefined when there is none: the chain head an append follows.
 */
export async function lastUserMetadata(client: EventStoreDBClient): Promise<unknown> {
  let from: number | 'end' = 'end';
  for (;;) {
    const page = await readAllPage(client, false, from, PAGE);
    for (const resolved of page) {
      if (fromResolvedEvent(resolved)) return resolved.event?.metadata;
    }
    const last = page.length === PAGE ? rawPosition(page[page.length - 1]) : undefined;
    if (last === undefined) return undefined;
    from = last - 1;
  }
}
