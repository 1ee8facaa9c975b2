import { useEffect, useState } from 'react';
import type { SearchPage, SearchResult } from '@sessionboxer/contracts';
import { errorText, get } from '../../api';
import { navigate, sessionPath } from '../../router';
import { REVEAL_EVENT } from '../transcript/VirtualEntries';

/** Typing pauses this long (ms) before a search is sent: one request per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 200;
/** The server's limit for q (SearchQueryDto): longer input is cut, not refused. */
const QUERY_MAX = 200;

export type SearchState =
  | { status: 'idle' }
  | { status: 'loading'; results: SearchResult[] }
  | { status: 'done'; results: SearchResult[] }
  | { status: 'failed'; message: string };

/**
 * Results for `query`, live: a search once typing pauses, the previous results kept while the
 * next are on their way, and an answer to an older query never replacing a newer one's.
 */
export function useSearch(query: string, includeArchived: boolean): SearchState {
  const [state, setState] = useState<SearchState>({ status: 'idle' });
  const q = query.trim().slice(0, QUERY_MAX);
  useEffect(() => {
    if (q === '') {
      setState({ status: 'idle' });
      return;
    }
    let current = true;
    setState((s) => ({ status: 'loading', results: 'results' in s ? s.results : [] }));
    const timer = setTimeout(() => {
      const params = new URLSearchParams({ q, limit: '20' });
      if (includeArchived) params.set('includeArchived', 'true');
      get<SearchPage>(`/api/search?${params.toString()}`).then(
        (page) => current && setState({ status: 'done', results: page.results }),
        (e: unknown) => current && setState({ status: 'failed', message: errorText(e) }),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [q, includeArchived]);
  return state;
}

/** How long (ms) an entry is looked for once its session opens (its transcript loads first). */
const REVEAL_WITHIN_MS = 10_000;

/**
 * Opens a result's session and, for an entry, brings that transcript row into view and marks
 * it for a moment. A long transcript draws only the rows in view, so until the row is in the
 * page it asks the transcript to scroll to it (the timeline's reveal).
 */
export function openResult(result: SearchResult): void {
  navigate(sessionPath(result.sessionId));
  const { position } = result;
  if (position === undefined) return;
  const until = Date.now() + REVEAL_WITHIN_MS;
  const look = () => {
    const row = document.getElementById(`entry-${position}`);
    if (row) {
      row.scrollIntoView({ block: 'center' });
      row.classList.add('entry-found');
      setTimeout(() => row.classList.remove('entry-found'), 4000);
      return;
    }
    window.dispatchEvent(new CustomEvent(REVEAL_EVENT, { detail: position }));
    if (Date.now() < until) setTimeout(look, 100);
  };
  setTimeout(look, 0);
}
