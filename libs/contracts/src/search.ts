/** What a search result is: a session's title, or an entry of its transcript. */
export type SearchResultKind = 'title' | 'prompt' | 'reply' | 'note';

/** A piece of a snippet: text to show as text, `match` for the words that matched. */
export interface SearchSnippetPart {
  text: string;
  match: boolean;
}

/** One hit of GET /api/search, best first (bm25). */
export interface SearchResult {
  sessionId: string;
  /** The session's title now (a rename shows at once). */
  title: string;
  archived: boolean;
  /** The transcript entry's id (its event's); absent for a title. */
  entryId?: string;
  /** The entry's position: the transcript's `entry-<position>` row. Absent for a title. */
  position?: number;
  kind: SearchResultKind;
  snippet: SearchSnippetPart[];
  /** When the entry happened, or when the session was created (a title). */
  at: string;
}

/** GET /api/search?q=&limit=&includeArchived= */
export interface SearchPage {
  results: SearchResult[];
}
