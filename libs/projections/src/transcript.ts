import type { TranscriptEntry, TranscriptMarker, TranscriptPage } from '@sessionboxer/contracts';
import { listConversationEvents } from './conversation-events.projection';
import { conversationQueries } from './conversations.projection';
import type { ReadModelReader } from './store/read-model-store';
import { listMarkers } from './transcript-markers.projection';
import { sidebarQueries } from './sidebar-tree.projection';
import { turnSnapshotQueries } from './turn-snapshots.projection';

export type { TranscriptEntry, TranscriptPage };

export const TRANSCRIPT_PAGE_MAX = 500;

/**
 * A session's whole transcript: its markers and its conversations' events, merged at query
 * time from the two read models. Read-only.
 */
export interface TranscriptQueries {
  /**
   * Entries after `after` (a global position, exclusive), oldest first; limit 1–500, default
   * 100. A live feed calls it with the last position it sent (see `lastPosition`).
   */
  page(sessionId: string, options?: { after?: number; limit?: number }): TranscriptPage;
}

/**
 * The position to pass as `after` next time: the page's last entry's, or `after` itself when
 * the page is empty. A live feed keeps it between batches; unlike `next` it is set on the last
 * page too.
 */
export function lastPosition(page: TranscriptPage, after?: number): number | undefined {
  return page.entries.at(-1)?.position ?? after;
}

function markerEntry(marker: TranscriptMarker): TranscriptEntry {
  return { kind: 'marker', position: marker.position, at: marker.at, marker };
}

const LINEAGE_MAX = 32;

/**
 * A fork from a turn's snapshot starts with the conversation it was forked from, up to the end
 * of that turn (the snapshot's position), and so on up the forks. Forks from a snapshot taken
 * now start with none: the agent's conversation then is its own.
 */
function inheritedConversations(reader: ReadModelReader, sessionId: string) {
  const inherited: { sessionId: string; upTo: number }[] = [];
  let upTo = Number.MAX_SAFE_INTEGER;
  let origin = sidebarQueries(reader).get(sessionId)?.forkedFrom ?? null;
  while (origin && inherited.length < LINEAGE_MAX) {
    const snapshot = turnSnapshotQueries(reader).byId(origin.sessionId, origin.snapshotId);
    if (!snapshot) break;
    upTo = Math.min(upTo, snapshot.conversationPosition);
    inherited.push({ sessionId: origin.sessionId, upTo });
    origin = sidebarQueries(reader).get(origin.sessionId)?.forkedFrom ?? null;
  }
  return inherited;
}

/**
 * Each source gives its first `limit + 1` after `after`, so the first `limit + 1` of their merge
 * are among them. Every entry has its own position (one event is one session's marker or one
 * conversation's event, never both), so the cursor can never split two entries.
 */
function entriesAfter(
  reader: ReadModelReader,
  sessionId: string,
  after: number | undefined,
  limit: number,
  inherit: boolean,
): TranscriptEntry[] {
  const entries = listMarkers(reader, sessionId, { after, limit }).map(markerEntry);
  const sources = [{ sessionId, upTo: Number.MAX_SAFE_INTEGER }];
  for (const { sessionId: id, upTo } of [
    ...sources,
    ...(inherit ? inheritedConversations(reader, sessionId) : []),
  ]) {
    for (const conversation of conversationQueries(reader).forSession(id)) {
      for (const doc of listConversationEvents(reader, conversation.id, { after, limit })) {
        const { position, conversationId, event } = doc;
        if (position > upTo) break;
        entries.push({ kind: 'event', position, at: event.at, conversationId, event });
      }
    }
  }
  return entries.sort((a, b) => a.position - b.position).slice(0, limit);
}

/**
 * `inherited: false` leaves out a fork's inherited conversation: for a store that holds only
 * the transcript's own read models (a fold of the history: no sidebar, no turn snapshots).
 */
export function transcriptQueries(
  reader: ReadModelReader,
  { inherited = true }: { inherited?: boolean } = {},
): TranscriptQueries {
  return {
    page(sessionId, options = {}) {
      const limit = Math.min(Math.max(1, options.limit ?? 100), TRANSCRIPT_PAGE_MAX);
      const found = entriesAfter(reader, sessionId, options.after, limit + 1, inherited);
      const entries = found.slice(0, limit);
      const next = found.length > limit ? entries[entries.length - 1].position : null;
      return { entries, next };
    },
  };
}
