import {
  DomainError,
  ErrorCode,
  isSessionEvent,
  sessionDecider,
  sessionStream,
  type SessionState,
} from '@sessionboxer/domain';
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';
import { conversationEventsProjection } from './conversation-events.projection';
import { conversationsProjection } from './conversations.projection';
import type { AnyProjection } from './projection';
import { applyEvents, type ProjectionCursor } from './runner/apply-events';
import { sessionDetailsProjection, sessionDetailsQueries } from './session-details.projection';
import { SqliteReadModelStore } from './store/sqlite-read-model-store';
import type { StateAtSnapshots } from './state-at-snapshots';
import {
  lastPosition,
  transcriptQueries,
  TRANSCRIPT_PAGE_MAX,
  type TranscriptEntry,
} from './transcript';
import { transcriptMarkersProjection } from './transcript-markers.projection';
import type { SessionDetails } from './session-details.projection';

/** A point in the history: a global position (inclusive), or a time (events recorded up to it). */
export type HistoryPoint = { position: number } | { time: string };

/** A session as it was at a point of the history, folded from the events up to it. */
export interface SessionStateAt {
  sessionId: string;
  /** The last event folded (-1: none), and when it was recorded (null: none). */
  position: number;
  recordedAt: string | null;
  /** The session aggregate's state, folded with the session decider's own `evolve`. */
  session: SessionState;
  details: SessionDetails | null;
  /** The whole transcript, oldest first. */
  transcript: TranscriptEntry[];
}

/**
 * The read models a session's state is made of. The others are not needed: every read model
 * is folded from events alone, so these come out as the live ones were at that point.
 */
const STATE_PROJECTIONS: readonly AnyProjection[] = [
  sessionDetailsProjection,
  transcriptMarkersProjection,
  conversationsProjection,
  conversationEventsProjection,
];

/**
 * The one rule for the API and the CLI: exactly one of a position (an integer ≥ 0) or a time
 * (ISO-8601 with a date and a time); anything else is refused naming what was wrong.
 */
export function historyPoint(position: unknown, time: unknown): HistoryPoint {
  const fail = (message: string) => new DomainError(ErrorCode.ValidationFailed, message);
  if ((position === undefined) === (time === undefined)) {
    throw fail('give exactly one of position (a global position) or time (an ISO-8601 time)');
  }
  if (position !== undefined) {
    const n =
      typeof position === 'string' && /^\d{1,15}$/.test(position) ? Number(position) : position;
    if (!Number.isSafeInteger(n) || (n as number) < 0) {
      throw fail(`position must be an integer ≥ 0, got ${JSON.stringify(position)}`);
    }
    return { position: n as number };
  }
  if (typeof time !== 'string' || !ISO_TIME.test(time) || Number.isNaN(Date.parse(time))) {
    throw fail(
      `time must be an ISO-8601 time such as 2026-12-01T23:00:00Z, got ${JSON.stringify(time)}`,
    );
  }
  return { time };
}

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:\d\d)$/;
const HANDLED = new Set(STATE_PROJECTIONS.flatMap((p) => p.handles));
const BATCH = 2000;

function before(point: HistoryPoint, event: RecordedEvent): boolean {
  if ('position' in point) return event.position <= point.position;
  return Date.parse(event.recordedAt) <= Date.parse(point.time);
}

/**
 * Folds the `$all` prefix up to `point` into a fresh in-memory read-model store with the same
 * projections the runner uses (markers of one session come from other sessions' and other
 * aggregates' events, so no stream list would do), and the session stream's events with the
 * session decider. Never reads today's read models. Stops at the first event after a time, as
 * positions order the history. With `snapshots`, starts from the last fold kept before the
 * point and keeps one every `snapshots.every` events it folds.
 */
export async function sessionStateAt(
  eventStore: EventStore,
  sessionId: string,
  point: HistoryPoint,
  snapshots?: StateAtSnapshots,
): Promise<SessionStateAt> {
  const at = 'position' in point ? point : { time: Date.parse(point.time) };
  const start = snapshots?.before(sessionId, at) ?? null;
  const batch = snapshots?.every ?? BATCH;
  const store = SqliteReadModelStore.open({ path: ':memory:', bulk: true, image: start?.image });
  try {
    let cursors: ProjectionCursor[] = store
      .register(STATE_PROJECTIONS)
      .map((checkpoint, i) => ({ projection: STATE_PROJECTIONS[i], checkpoint }));
    const stream = sessionStream(sessionId);
    let session: SessionState = start?.session ?? sessionDecider.initialState;
    let last = start && { position: start.position, recordedAt: start.recordedAt };
    let latest = start?.latest ?? -Infinity;
    for (let from = (start?.position ?? -1) + 1, done = false; !done;) {
      const page = await eventStore.readAll({ fromPosition: from, maxCount: batch });
      const upTo = page.findIndex((e) => !before(point, e));
      const events = upTo === -1 ? page : page.slice(0, upTo);
      done = upTo !== -1 || page.length < batch;
      if (events.length === 0) break;
      for (const event of events) {
        latest = Math.max(latest, Date.parse(event.recordedAt));
        if (event.streamName === stream && isSessionEvent(event)) {
          session = sessionDecider.evolve(session, event);
        }
      }
      cursors = applyEvents(
        store,
        cursors,
        events.filter((e) => HANDLED.has(e.type)),
      );
      last = events[events.length - 1];
      from = last.position + 1;
      if (snapshots && events.length === batch) {
        const { position, recordedAt } = last;
        snapshots.keep(sessionId, {
          position,
          recordedAt,
          latest,
          session,
          image: store.serialize(),
        });
      }
    }
    return {
      sessionId,
      position: last?.position ?? -1,
      recordedAt: last?.recordedAt ?? null,
      session,
      details: sessionDetailsQueries(store).get(sessionId),
      transcript: wholeTranscript(store, sessionId),
    };
  } finally {
    store.close();
  }
}

function wholeTranscript(store: SqliteReadModelStore, sessionId: string): TranscriptEntry[] {
  // The fold holds neither the sidebar nor turn snapshots, so no fork's inherited conversation.
  const queries = transcriptQueries(store, { inherited: false });
  const entries: TranscriptEntry[] = [];
  let after: number | undefined;
  for (;;) {
    const page = queries.page(sessionId, { after, limit: TRANSCRIPT_PAGE_MAX });
    entries.push(...page.entries);
    if (page.next === null) return entries;
    after = lastPosition(page, after);
  }
}
