import { useCallback, useEffect, useState } from 'react';
import { errorText, get } from '../api';
import type {
  TimelineEntry,
  TimelineKind,
  TimelineLink,
  TimelinePage,
} from '@sessionboxer/contracts';
import { openPane } from '../view-state';
import { REVEAL_EVENT } from './transcript/VirtualEntries';

const KINDS: TimelineKind[] = [
  'command',
  'turn',
  'tool_call',
  'marker',
  'approval',
  'terminal',
  'recording',
  'snapshot',
  'egress',
  'box',
];
const ACTORS = ['', 'person', 'agent', 'system', 'api-key'];
const PAGE = 200;

function actorText(entry: TimelineEntry): string {
  const a = entry.actor;
  if (!a) return '';
  switch (a.kind) {
    case 'person':
      return a.id;
    case 'agent':
      return 'Agent';
    case 'system':
      return `system (${a.id})`;
    case 'api-key':
      return `API key ${a.keyId}`;
  }
}

/** Opens the pane that shows the entry in full; the transcript scrolls to the entry. */
function follow(sessionId: string, link: TimelineLink, position: number): void {
  if (link.pane === 'transcript') {
    window.dispatchEvent(new CustomEvent(REVEAL_EVENT, { detail: position }));
    return;
  }
  const { pane, ...focus } = link;
  openPane(sessionId, pane, focus);
}

function query(kinds: Set<TimelineKind>, actor: string, after: number | null): string {
  const params = new URLSearchParams({ limit: String(PAGE) });
  if (kinds.size > 0 && kinds.size < KINDS.length) params.set('kinds', [...kinds].join(','));
  if (actor) params.set('actor', actor);
  if (after !== null) params.set('after', String(after));
  return params.toString();
}

/** The session's timeline across layers, filtered by kind and actor, a page at a time. */
function useTimeline(sessionId: string, kinds: Set<TimelineKind>, actor: string) {
  const [entries, setEntries] = useState<TimelineEntry[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(
    (after: number | null) => {
      get<TimelinePage>(`/api/sessions/${sessionId}/timeline?${query(kinds, actor, after)}`)
        .then((page) => {
          setEntries((old) => (after === null ? page.entries : [...old, ...page.entries]));
          setNext(page.next);
          setError(null);
        })
        .catch((e: unknown) => setError(errorText(e)));
    },
    [sessionId, kinds, actor],
  );
  useEffect(() => load(null), [load]);
  return { entries, next, error, load };
}

/** The Timeline pane: every layer of the session's history in one order, linking into panes. */
export function TimelinePane({ sessionId }: { sessionId: string }) {
  const [kinds, setKinds] = useState<Set<TimelineKind>>(new Set());
  const [actor, setActor] = useState('');
  const { entries, next, error, load } = useTimeline(sessionId, kinds, actor);
  const toggle = (kind: TimelineKind) =>
    setKinds((old) => {
      const fresh = new Set(old);
      if (fresh.has(kind)) fresh.delete(kind);
      else fresh.add(kind);
      return fresh;
    });
  return (
    <div className="timeline">
      <fieldset className="row">
        <legend>Kinds (none checked: all)</legend>
        {KINDS.map((k) => (
          <label key={k}>
            <input type="checkbox" checked={kinds.has(k)} onChange={() => toggle(k)} /> {k}
          </label>
        ))}
        <label>
          Actor{' '}
          <select value={actor} onChange={(e) => setActor(e.target.value)}>
            {ACTORS.map((a) => (
              <option key={a} value={a}>
                {a || 'anyone'}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => load(null)}>
          Refresh
        </button>
      </fieldset>
      {error && <p className="error">{error}</p>}
      {entries.length === 0 && !error && <p className="muted">Nothing on the timeline.</p>}
      <ol className="pane-list" aria-label="Timeline">
        {entries.map((e) => (
          <li key={e.position} className={`card timeline-entry kind-${e.kind}`}>
            <span className="muted">
              #{e.position} · {new Date(e.at).toLocaleString()} · {e.kind}
              {e.turn !== null ? ` · turn ${e.turn}` : ''} · {actorText(e)}
            </span>
            <p>{e.summary}</p>
            {e.captions && e.captions.length > 0 && (
              <ul aria-label="Captions">
                {e.captions.map((c) => (
                  <li key={`${c.at}-${c.text}`}>
                    {c.at.toFixed(1)} s: {c.text}
                  </li>
                ))}
              </ul>
            )}
            {e.link && (
              <button
                type="button"
                onClick={() => follow(sessionId, e.link as TimelineLink, e.position)}
              >
                Show in {e.link.pane}
              </button>
            )}
          </li>
        ))}
      </ol>
      {next !== null && (
        <button type="button" onClick={() => load(next)}>
          More
        </button>
      )}
    </div>
  );
}
