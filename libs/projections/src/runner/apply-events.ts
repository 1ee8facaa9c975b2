import type { RecordedEvent } from '@sessionboxer/event-store';
import type { AnyProjection, DocumentChange } from '../projection';
import type { Checkpoint, ProjectionFailure } from '../store/read-model-store';
import type { DocumentWrite, SqliteReadModelStore } from '../store/sqlite-read-model-store';
import { DocumentBuffer, UnserialisableDocument } from './document-buffer';

/** A projection and where it stands. */
export interface ProjectionCursor {
  projection: AnyProjection;
  checkpoint: Checkpoint;
}

/**
 * Applies a batch of events (in `$all` order) to every projection, writing their documents and
 * checkpoints in ONE transaction: either the whole batch lands with its checkpoints or none of
 * it does, so no event is ever applied twice. Returns the cursors as committed.
 *
 * A projection skips events at or before its checkpoint (it may be ahead of the others). When
 * its `apply` throws, it stops there: its checkpoint stays on the event before and the failure
 * is recorded with it; the other projections go on. A failing write to SQLite itself is not a
 * projection's fault: it rolls the batch back and is thrown.
 *
 * The batch is first applied through a DocumentBuffer (each document parsed once, written once
 * at the end). Should any projection fail in it, that transaction is rolled back and the batch
 * applied again event by event, writing each change as it comes, which stops the failing
 * projection exactly on its event with its documents as they were before it.
 */
export function applyEvents(
  store: SqliteReadModelStore,
  cursors: readonly ProjectionCursor[],
  events: readonly RecordedEvent[],
): ProjectionCursor[] {
  try {
    return store.transaction(() => applyBuffered(store, cursors, events));
  } catch (error) {
    if (!(error instanceof ProjectionFault)) throw error;
  }
  return store.transaction(() =>
    cursors.map((cursor) => {
      const checkpoint = advance(store, cursor, events);
      if (checkpoint !== cursor.checkpoint) store.saveCheckpoint(checkpoint);
      return { projection: cursor.projection, checkpoint };
    }),
  );
}

/** A projection failed in the buffered pass: the batch is applied again the careful way. */
class ProjectionFault extends Error {}

const handled = new WeakMap<AnyProjection, ReadonlySet<string>>();

function handlesOf(projection: AnyProjection): ReadonlySet<string> {
  let set = handled.get(projection);
  if (set === undefined) {
    set = new Set(projection.handles);
    handled.set(projection, set);
  }
  return set;
}

function applyBuffered(
  store: SqliteReadModelStore,
  cursors: readonly ProjectionCursor[],
  events: readonly RecordedEvent[],
): ProjectionCursor[] {
  const buffer = new DocumentBuffer(store);
  const advanced = cursors.map(({ projection, checkpoint }) => {
    if (checkpoint.failure !== null) return { projection, checkpoint };
    const handles = handlesOf(projection);
    const get = (id: string) => buffer.get(projection, id);
    let position = checkpoint.position;
    for (const event of events) {
      if (event.position <= position) continue;
      if (handles.has(event.type)) {
        let changes: DocumentChange<unknown>[];
        try {
          changes = projection.apply(event, get);
          for (const change of changes) checkPlace(change);
        } catch {
          throw new ProjectionFault();
        }
        for (const change of changes) buffer.change(projection.name, change);
      }
      position = event.position;
    }
    if (position === checkpoint.position) return { projection, checkpoint };
    return { projection, checkpoint: { ...checkpoint, position } };
  });
  try {
    buffer.flush();
  } catch (error) {
    if (error instanceof UnserialisableDocument) throw new ProjectionFault();
    throw error;
  }
  advanced.forEach((c, i) => {
    if (c.checkpoint !== cursors[i].checkpoint) store.saveCheckpoint(c.checkpoint);
  });
  return advanced;
}

function advance(
  store: SqliteReadModelStore,
  { projection, checkpoint }: ProjectionCursor,
  events: readonly RecordedEvent[],
): Checkpoint {
  if (checkpoint.failure !== null) return checkpoint;
  const handles = handlesOf(projection);
  let position = checkpoint.position;
  for (const event of events) {
    if (event.position <= position) continue;
    if (handles.has(event.type)) {
      const changes = tryApply(projection, event, (id) => store.get(projection, id));
      if ('failure' in changes) return { ...checkpoint, position, failure: changes.failure };
      store.write(projection.name, changes.ok);
    }
    position = event.position;
  }
  return position === checkpoint.position ? checkpoint : { ...checkpoint, position };
}

/** Runs `apply` and checks that its documents serialise, so a bad doc never half-writes. */
function tryApply(
  projection: AnyProjection,
  event: RecordedEvent,
  get: (id: string) => unknown,
): { ok: DocumentWrite[] } | { failure: ProjectionFailure } {
  try {
    const changes = projection.apply(event, get);
    return { ok: changes.map(({ doc, ...at }) => ({ ...checkPlace(at), json: serialise(doc) })) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      failure: { position: event.position, eventId: event.id, eventType: event.type, message },
    };
  }
}

/** A bad id or order is the projection's bug: caught here, it stops only that projection. */
function checkPlace<T extends Omit<DocumentChange<unknown>, 'doc'>>(change: T): T {
  if (typeof change.id !== 'string' || change.id.length === 0) {
    throw new Error(`a document id must be a non-empty string, got ${JSON.stringify(change.id)}`);
  }
  if (change.partition !== undefined && typeof change.partition !== 'string') {
    throw new Error(`a partition must be a string, got ${JSON.stringify(change.partition)}`);
  }
  if (change.order !== undefined && !Number.isFinite(change.order)) {
    throw new Error(`an order must be a finite number, got ${String(change.order)}`);
  }
  return change;
}

function serialise(doc: unknown): string | null {
  if (doc === null) return null;
  const json = JSON.stringify(doc) as string | undefined;
  if (json === undefined) throw new Error(`a document must be JSON, got ${typeof doc}`);
  return json;
}
