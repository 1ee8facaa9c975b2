import type { RecordedEvent } from '@sessionboxer/event-store';

/** One document that an event touches, with its new value; `doc: null` deletes it. */
export interface DocumentChange<Doc> {
  id: string;
  /**
   * Groups documents for `list` (e.g. a session's markers). Omitted: an existing document keeps
   * its partition, a new one gets ''. The same holds for `order`, a new one getting 0.
   */
  partition?: string;
  /** Sort key inside a partition, and the cursor for paging; keep it unique there. */
  order?: number;
  doc: Doc | null;
}

/**
 * A read model as data. `apply` is pure: given one recorded event and a way to read this
 * projection's current documents, it says which documents change and how. The runner and
 * rebuild write those changes and the checkpoint in one transaction, so `apply` never sees an
 * event twice and never needs to guard against replays itself.
 */
export interface Projection<Doc> {
  /** Also the document table's name: lowercase letters, digits and `_`. */
  readonly name: string;
  /** Bump it when `apply` changes meaning: the runner then rebuilds this read model from 0. */
  readonly version: number;
  /** Event types `apply` is called for; every other event only advances the checkpoint. */
  readonly handles: readonly string[];
  apply(event: RecordedEvent, get: (id: string) => Doc | null): DocumentChange<Doc>[];
  /**
   * A full-text index over some text fields of this projection's documents, which the store
   * keeps (see FullTextIndex). Adding or changing it needs a version bump, like `apply`.
   */
  readonly fullText?: FullTextIndex;
}

/**
 * An SQLite FTS5 index the store keeps over the documents' text: one column per field. The
 * store writes it with the documents themselves (triggers on the document table), so it is
 * in the same transaction as the documents and the checkpoint, and is dropped and built again
 * with them when the version changes. A document whose fields are all absent is not indexed.
 * Query it with `ReadModelReader.search`.
 */
export interface FullTextIndex {
  /** In order; `name` is lowercase letters, digits and `_`; `path` a JSON path (`$.title`). */
  readonly columns: readonly FullTextColumn[];
}

export interface FullTextColumn {
  readonly name: string;
  /** `$.field` or `$.field.sub`: letters, digits and `_` only. */
  readonly path: string;
  /** bm25's weight of a match in this column; default 1. */
  readonly weight?: number;
}

/** Projections of different document types, as the runner holds them. */
export type AnyProjection = Projection<unknown>;
