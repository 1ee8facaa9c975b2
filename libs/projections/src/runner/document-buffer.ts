/**
 * A batch's documents held in memory: each document a projection reads is parsed once and
 * then served from here, each change lands here, and only the last state of every changed
 * document is serialised and written, once, when the batch is done. A conversation's header
 * changed by 40 events of a batch is thus parsed once and written once, not 40 times.
 *
 * Writes keep the store's semantics (see DocumentChange): a change without partition or order
 * keeps the document's own, so the merged write carries the last given since its last delete,
 * and a document deleted and written again in one batch is deleted first, then written anew.
 */
import type { AnyProjection, DocumentChange } from '../projection';
import type { DocumentWrite, SqliteReadModelStore } from '../store/sqlite-read-model-store';

interface Entry {
  doc: unknown;
  /** Changed in this batch: written at flush. */
  dirty: boolean;
  /** Deleted in this batch (maybe written again since): the row goes before any write. */
  deleted: boolean;
  partition: string | undefined;
  order: number | undefined;
}

/** What a flush could not serialise: the projection's bug, found after the fact. */
export class UnserialisableDocument extends Error {}

export class DocumentBuffer {
  private readonly tables = new Map<string, Map<string, Entry>>();

  constructor(private readonly store: SqliteReadModelStore) {}

  /** The document as the batch has it so far (the store's when the batch has not touched it). */
  get(projection: AnyProjection, id: string): unknown {
    const table = this.table(projection.name);
    const entry = table.get(id);
    if (entry !== undefined) return entry.doc;
    const doc = this.store.get(projection, id);
    table.set(id, { doc, dirty: false, deleted: false, partition: undefined, order: undefined });
    return doc;
  }

  change(projectionName: string, change: DocumentChange<unknown>): void {
    const table = this.table(projectionName);
    const entry = table.get(change.id);
    const doc = change.doc ?? null;
    if (entry === undefined) {
      const { partition, order } = change;
      table.set(change.id, { doc, dirty: true, deleted: doc === null, partition, order });
      return;
    }
    entry.dirty = true;
    entry.doc = doc;
    if (doc === null) {
      entry.deleted = true;
      entry.partition = undefined;
      entry.order = undefined;
      return;
    }
    if (change.partition !== undefined) entry.partition = change.partition;
    if (change.order !== undefined) entry.order = change.order;
  }

  /** Writes every changed document; throws UnserialisableDocument before writing any. */
  flush(): void {
    const writes: [string, DocumentWrite[]][] = [];
    for (const [projectionName, table] of this.tables) {
      const changes: DocumentWrite[] = [];
      for (const [id, e] of table) {
        if (!e.dirty) continue;
        if (e.deleted) changes.push({ id, json: null });
        if (e.doc !== null) {
          changes.push({ id, partition: e.partition, order: e.order, json: serialise(e.doc) });
        }
      }
      if (changes.length > 0) writes.push([projectionName, changes]);
    }
    for (const [projectionName, changes] of writes) this.store.write(projectionName, changes);
    this.tables.clear();
  }

  private table(projectionName: string): Map<string, Entry> {
    let table = this.tables.get(projectionName);
    if (table === undefined) {
      table = new Map();
      this.tables.set(projectionName, table);
    }
    return table;
  }
}

function serialise(doc: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(doc);
  } catch (error) {
    throw new UnserialisableDocument(error instanceof Error ? error.message : String(error));
  }
  if (json === undefined) throw new UnserialisableDocument(`a document must be JSON`);
  return json;
}
