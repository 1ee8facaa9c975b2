import type { Snapshot } from '@sessionboxer/contracts';
import { isSessionEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

// A session's snapshot as GET …/snapshots lists it: the wire's (libs/contracts).
export type { Snapshot as SnapshotDoc };
type SnapshotDoc = Snapshot;

function apply(event: RecordedEvent): DocumentChange<SnapshotDoc>[] {
  if (!isSessionEvent(event) || event.type !== 'SnapshotTaken') return [];
  const { sessionId, snapshotId, ordinal, sizeBytes, conversationPosition, at } = event.data;
  const doc = {
    id: snapshotId,
    sessionId,
    ordinal,
    sizeBytes,
    createdAt: at,
    conversationPosition,
  };
  // Partitioned by session and ordered by ordinal, so `list` is the session's Snapshot 1, 2, …
  return [{ id: docId(sessionId, snapshotId), partition: sessionId, order: ordinal, doc }];
}

/** Snapshots are never changed or removed, so one event writes one document, once. */
export const snapshotsProjection: Projection<SnapshotDoc> = {
  name: 'snapshots',
  version: 1,
  handles: ['SnapshotTaken'],
  apply,
};

/** A session's snapshots. Read-only. */
export interface SnapshotQueries {
  /** Oldest (Snapshot 1) first. */
  list(sessionId: string): SnapshotDoc[];
  get(sessionId: string, snapshotId: string): SnapshotDoc | null;
}

export function snapshotQueries(reader: ReadModelReader): SnapshotQueries {
  return {
    list: (sessionId) =>
      reader.list(snapshotsProjection, { partition: sessionId }).map((d) => d.doc),
    get: (sessionId, snapshotId) => reader.get(snapshotsProjection, docId(sessionId, snapshotId)),
  };
}
