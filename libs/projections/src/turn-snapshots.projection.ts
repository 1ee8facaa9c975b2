import type { TurnSnapshot } from '@sessionboxer/contracts';
import { isSessionEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

export type { TurnSnapshot };

function apply(event: RecordedEvent): DocumentChange<TurnSnapshot>[] {
  if (!isSessionEvent(event) || event.type !== 'TurnSnapshotTaken') return [];
  const { sessionId, snapshotId, turn, conversationPosition, sizeBytes, files, newBytes, at } =
    event.data;
  const doc = {
    id: snapshotId,
    sessionId,
    turn,
    conversationPosition,
    sizeBytes,
    files,
    newBytes,
    createdAt: at,
  };
  // Keyed by session and turn (a fork names the turn), listed in turn order.
  return [{ id: docId(sessionId, String(turn)), partition: sessionId, order: turn, doc }];
}

/** The snapshots taken automatically at each turn's end; never changed or removed. */
export const turnSnapshotsProjection: Projection<TurnSnapshot> = {
  name: 'turn_snapshots',
  version: 1,
  handles: ['TurnSnapshotTaken'],
  apply,
};

/** A session's turn snapshots. Read-only. */
export interface TurnSnapshotQueries {
  /** Turn 1 first. */
  list(sessionId: string): TurnSnapshot[];
  get(sessionId: string, turn: number): TurnSnapshot | null;
  /** The one with this snapshot id, if the session has it (a fork names its origin by id). */
  byId(sessionId: string, snapshotId: string): TurnSnapshot | null;
  /** The newest one, whose manifest the next snapshot compares its files with. */
  latest(sessionId: string): TurnSnapshot | null;
}

export function turnSnapshotQueries(reader: ReadModelReader): TurnSnapshotQueries {
  const list = (sessionId: string) =>
    reader.list(turnSnapshotsProjection, { partition: sessionId }).map((d) => d.doc);
  return {
    list,
    get: (sessionId, turn) => reader.get(turnSnapshotsProjection, docId(sessionId, String(turn))),
    byId: (sessionId, snapshotId) => list(sessionId).find((s) => s.id === snapshotId) ?? null,
    latest: (sessionId) => list(sessionId).at(-1) ?? null,
  };
}
