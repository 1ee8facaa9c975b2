import { useEffect, useId, useRef, useState } from 'react';
import type { SearchResult, SearchSnippetPart } from '@sessionboxer/contracts';
import { openResult, useSearch } from './use-search';
import './search.css';

const KIND_LABELS: Record<SearchResult['kind'], string> = {
  title: 'Title',
  prompt: 'Prompt',
  reply: 'Reply',
  note: 'Note',
};

/** The snippet as text nodes, the matched words in <mark>: nothing in it is ever markup. */
function Snippet({ parts }: { parts: SearchSnippetPart[] }) {
  return (
    <span className="search-snippet">
      {parts.map((p, i) =>
        p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
      )}
    </span>
  );
}

/** Ctrl+Shift+F (⌘⇧F) focuses the box from anywhere, even while typing elsewhere. */
function useFocusShortcut(field: React.RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!((e.ctrlKey || e.metaKey) && e.shiftKey && e.code === 'KeyF')) return;
      if (document.querySelector('dialog[open]')) return;
      e.preventDefault();
      field.current?.focus();
      field.current?.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [field]);
}

/**
 * Search over every session's title and transcript, live as you type: a combobox whose
 * listbox holds the results (arrows move, Enter opens, Escape clears). A result opens its
 * session, an entry's scrolled into view.
 */
export function SearchBox() {
  const [query, setQuery] = useState('');
  const [includeArchived, setIncludeArchived] = useState(false);
  const [active, setActive] = useState(0);
  const state = useSearch(query, includeArchived);
  const field = useRef<HTMLInputElement>(null);
  const id = useId();
  useFocusShortcut(field);
  const results = 'results' in state ? state.results : [];
  const current = Math.min(active, results.length - 1);
  const open = (result: SearchResult | undefined) => {
    if (!result) return;
    openResult(result);
  };
  const shown = query.trim() !== '';
  return (
    <search className="search-box">
      <input
        ref={field}
        type="search"
        role="combobox"
        aria-label="Search sessions and transcripts"
        placeholder="Search (Ctrl+Shift+F)"
        aria-expanded={shown && results.length > 0}
        aria-controls={`${id}-results`}
        aria-autocomplete="list"
        aria-activedescendant={shown && current >= 0 ? `${id}-${current}` : undefined}
        value={query}
        maxLength={200}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive(Math.min(current + 1, results.length - 1));
          else if (e.key === 'ArrowUp') setActive(Math.max(current - 1, 0));
          else if (e.key === 'Enter') open(results[current]);
          else if (e.key === 'Escape' && query !== '') setQuery('');
          else return;
          e.preventDefault();
        }}
      />
      {shown && (
        <div className="field checkbox">
          <input
            id={`${id}-archived`}
            type="checkbox"
            checked={includeArchived}
            onChange={(e) => setIncludeArchived(e.target.checked)}
          />
          <label htmlFor={`${id}-archived`}>Search archived too</label>
        </div>
      )}
      <ul
        role="listbox"
        id={`${id}-results`}
        aria-label="Search results"
        aria-busy={state.status === 'loading'}
        hidden={!shown || results.length === 0}
      >
        {shown &&
          results.map((r, i) => (
            <li
              key={`${r.sessionId}:${r.entryId ?? 'title'}`}
              id={`${id}-${i}`}
              role="option"
              aria-selected={i === current}
              onClick={() => open(r)}
            >
              <span className="search-title">{r.title}</span>
              <span className="search-kind">
                {KIND_LABELS[r.kind]}
                {r.archived ? ' · archived' : ''}
              </span>
              <Snippet parts={r.snippet} />
            </li>
          ))}
      </ul>
      <p role="status" className="muted search-status">
        {!shown
          ? ''
          : state.status === 'loading'
            ? 'Searching…'
            : state.status === 'failed'
              ? `Search failed: ${state.message}`
              : state.status === 'done' && results.length === 0
                ? 'No matches.'
                : ''}
      </p>
    </search>
  );
}
