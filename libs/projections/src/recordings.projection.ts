import type { Recording } from '@sessionboxer/contracts';
import { isSessionEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

// A finished recording as the web UI's player reads it: the wire's shape (libs/contracts).
export type { Recording as RecordingDoc };
type RecordingDoc = Recording;

// One document per recording file: narration added later updates the same one.
const idOf = (sessionId: string, path: string): string => docId(sessionId, path);

function apply(
  event: RecordedEvent,
  get: (id: string) => RecordingDoc | null,
): DocumentChange<RecordingDoc>[] {
  if (!isSessionEvent(event)) return [];
  if (event.type === 'RecordingFinished') {
    const { at, ...data } = event.data;
    const id = idOf(data.sessionId, data.path);
    const doc: RecordingDoc = { ...data, id: event.id, finishedAt: at, position: event.position };
    return [{ id, partition: data.sessionId, order: event.position, doc }];
  }
  if (event.type === 'RecordingNarrated') {
    const { sessionId, path, seconds, bytes, captions, track, narration } = event.data;
    const id = idOf(sessionId, path);
    const doc = get(id);
    // Narration of a video this read model never saw finish changes nothing it shows.
    if (!doc) return [];
    return [{ id, doc: { ...doc, seconds, bytes, captions, track, narration } }];
  }
  return [];
}

export const recordingsProjection: Projection<RecordingDoc> = {
  name: 'recordings',
  version: 2,
  handles: ['RecordingFinished', 'RecordingNarrated'],
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
