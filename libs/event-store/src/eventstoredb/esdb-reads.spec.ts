/**
 * Paging over `$all` without a server: the client is replaced by an in-memory log answering
 * readAll the way EventStoreDB does, once with a backwards read that includes its start
 * position and once with one that excludes it, since the adapter must not depend on which.
 */
import { Readable } from 'node:stream';
import {
  END,
  START,
  type AllStreamResolvedEvent,
  type EventStoreDBClient,
  type ReadPosition,
} from '@eventstore/db-client';
import { lastUserPosition, readAllUserEvents } from './esdb-reads';

interface ReadAllArgs {
  direction: 'forwards' | 'backwards';
  fromPosition: ReadPosition;
  maxCount: number;
}

function entry(position: number, system = false): AllStreamResolvedEvent {
  const p = BigInt(position);
  return {
    event: {
      streamId: system ? '$stats-node' : 'session-1',
      id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
      isJson: true,
      revision: BigInt(position),
      type: system ? '$statsCollected' : 'Happened',
      created: new Date(0),
      data: { position },
      metadata: {},
      position: { commit: p, prepare: p },
    },
  } as unknown as AllStreamResolvedEvent;
}

/** Positions 10, 20, … ; every 7th entry a system event. */
function log(count: number): AllStreamResolvedEvent[] {
  return Array.from({ length: count }, (_, i) => entry((i + 1) * 10, (i + 1) % 7 === 0));
}

function client(
  entries: AllStreamResolvedEvent[],
  backwardsIncludesStart: boolean,
): EventStoreDBClient {
  const pos = (e: AllStreamResolvedEvent) => Number(e.event?.position.commit);
  return {
    readAll({ direction, fromPosition, maxCount }: ReadAllArgs) {
      let items: AllStreamResolvedEvent[];
      if (direction === 'forwards') {
        const from =
          fromPosition === START ? -Infinity : Number((fromPosition as { commit: bigint }).commit);
        items = entries.filter((e) => pos(e) >= from);
      } else {
        const from =
          fromPosition === END ? Infinity : Number((fromPosition as { commit: bigint }).commit);
        items = entries
          .filter((e) => (backwardsIncludesStart ? pos(e) <= from : pos(e) < from))
          .reverse();
      }
      return Readable.from(items.slice(0, maxCount));
    },
  } as unknown as EventStoreDBClient;
}

const positions = (events: { position: number }[]) => events.map((e) => e.position);
const userPositions = (entries: AllStreamResolvedEvent[]) =>
  entries
    .filter((e) => !e.event?.type.startsWith('$'))
    .map((e) => Number(e.event?.position.commit));

describe.each([true, false])(
  'readAllUserEvents (backwards read includes its start: %p)',
  (inclusive) => {
    const entries = log(1300);

    it('reads every user event once, across pages, without system events', async () => {
      const all = await readAllUserEvents(client(entries, inclusive), {
        forwards: true,
        from: 0,
        maxCount: undefined,
      });
      expect(positions(all)).toEqual(userPositions(entries));
    });

    it('reads forwards from a position, that position included, up to maxCount', async () => {
      const got = await readAllUserEvents(client(entries, inclusive), {
        forwards: true,
        from: 5010,
        maxCount: 3,
      });
      expect(positions(got)).toEqual([5010, 5020, 5030]);
    });

    it('reads backwards from a position, that position included, across pages', async () => {
      const got = await readAllUserEvents(client(entries, inclusive), {
        forwards: false,
        from: 8000,
        maxCount: 700,
      });
      expect(positions(got)).toEqual(
        userPositions(entries)
          .filter((p) => p <= 8000)
          .reverse()
          .slice(0, 700),
      );
    });

    it('reads backwards from the end', async () => {
      const got = await readAllUserEvents(client(entries, inclusive), {
        forwards: false,
        from: Number.MAX_SAFE_INTEGER,
        maxCount: 2,
      });
      expect(positions(got)).toEqual([13000, 12990]);
    });

    it('reports the last user event as the head, skipping system events after it', async () => {
      expect(await lastUserPosition(client(log(14), inclusive))).toBe(130);
      expect(await lastUserPosition(client([], inclusive))).toBe(-1);
    });
  },
);
