import { isSessionEvent, type RecordingData } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

/** A finished recording of a session's desktop: what the web UI's player needs. */
export interface RecordingDoc extends Omit<RecordingData, 'sessionId'> {
  id: string;
  sessionId: string;
  finishedAt: string;
  position: number;
}

function apply(event: RecordedEvent): DocumentChange<RecordingDoc>[] {
  if (!isSessionEvent(event) || event.type !== 'RecordingFinished') return [];
  const { at, ...data } = event.data;
  const doc: RecordingDoc = { ...data, id: event.id, finishedAt: at, position: event.position };
  return [{ id: event.id, partition: data.sessionId, order: event.position, doc }];
}

export const recordingsProjection: Projection<RecordingDoc> = {
  name: 'recordings',
  version: 1,
  handles: ['RecordingFinished'],
  apply,
};

export interface RecordingQueries {
  /** Oldest first. */
  list(sessionId: string): RecordingDoc[];
}

export function recordingQueries(reader: ReadModelReader): RecordingQueries {
  return {
    list: (sessionId) =>
      reader.list(recordingsProjection, { partition: sessionId }).map((d) => d.doc),
  };
}
