import type { Projection } from '../projection';

/** A document as stored: its value plus where it sits for `list`. */
export interface StoredDocument<Doc> {
  id: string;
  partition: string;
  order: number;
  doc: Doc;
}

export interface ListOptions {
  partition: string;
  /** Exclusive: only documents whose order is greater (the last order of the previous page). */
  after?: number;
  /** Default: every document of the partition. */
  limit?: number;
}

/** Where a projection stands: the last position it has applied (-1: none yet). */
export interface Checkpoint {
  projection: string;
  version: number;
  position: number;
  /** Set when the projection stopped on an event it could not apply (see ProjectionRunner). */
  failure: ProjectionFailure | null;
}

export interface ProjectionFailure {
  position: number;
  eventId: string;
  eventType: string;
  message: string;
}

/**
 * Where a reactor stands: the last position it is done with (reacted to, or does not handle).
 * `failure` is the reaction it is retrying now, if any (see ReactorRunner).
 */
export interface ReactorCheckpoint {
  reactor: string;
  position: number;
  failure: (ProjectionFailure & { attempts: number }) | null;
}

/** A search of a projection's full-text index (its `fullText`). */
export interface FullTextQuery {
  /**
   * What a person typed, read as plain words (never FTS5 syntax: quotes, AND, NEAR( … are
   * words or nothing), every one required, the last one also as a prefix.
   */
  text: string;
  /** Most hits, best first. */
  limit: number;
  /** Only documents whose field at `path` (`$.field`) is `equals`. */
  where?: readonly { path: string; equals: string | number | boolean | null }[];
  /** Words around the match in the snippet, 1–64; default 12. */
  snippetTokens?: number;
}

/** A snippet's text cut at its marks: the matched words and the text around them. */
export interface TextPart {
  text: string;
  match: boolean;
}

/** A document found, best first by bm25 (its columns' weights), with its best snippet. */
export interface FullTextHit<Doc> extends StoredDocument<Doc> {
  /** bm25: lower is better. */
  rank: number;
  snippet: TextPart[];
}

/** The read side of a read-model store: all that the query functions of a projection need. */
export interface ReadModelReader {
  get<Doc>(projection: Projection<Doc>, id: string): Doc | null;
  list<Doc>(projection: Projection<Doc>, options: ListOptions): StoredDocument<Doc>[];
  /** Throws when the projection has no `fullText`; no word in `text` finds nothing. */
  search<Doc>(projection: Projection<Doc>, query: FullTextQuery): FullTextHit<Doc>[];
}
