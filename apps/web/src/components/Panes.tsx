import { useRef, type KeyboardEvent } from 'react';
import type { SessionState } from '../store';
import type { PaneName } from '../types';
import { openPane } from '../view-state';
import { AutoQaPane } from './AutoQaPane';
import { PrsPane } from './PrsPane';
import { RecordingsPane } from './RecordingsPane';
import { SnapshotsPane } from './SnapshotsPane';
import { TerminalsPane } from './TerminalsPane';

const TABS: { pane: PaneName; label: string }[] = [
  { pane: 'prs', label: 'PRs' },
  { pane: 'autoqa', label: 'Auto QA' },
  { pane: 'terminals', label: 'Terminals' },
  { pane: 'snapshots', label: 'Snapshots' },
  { pane: 'recordings', label: 'Recordings' },
];

function PaneBody({ view }: { view: SessionState }) {
  const { sessionId, parts, focus } = view;
  switch (view.pane) {
    case 'prs':
      return <PrsPane prs={parts.prs} />;
    case 'autoqa':
      return <AutoQaPane sessionId={sessionId} runs={parts.verifications} focus={focus} />;
    case 'terminals':
      return <TerminalsPane sessionId={sessionId} terminals={parts.terminals} focus={focus} />;
    case 'snapshots':
      return <SnapshotsPane sessionId={sessionId} snapshots={parts.snapshots} focus={focus} />;
    case 'recordings':
      return <RecordingsPane sessionId={sessionId} recordings={parts.recordings} focus={focus} />;
  }
}

/**
 * The session's panes as tabs. Which one shows lives in the store, so a marker's link and an
 * agent's ui_open (the `pane` frame) open one the same way a click does.
 */
export function Panes({ view }: { view: SessionState }) {
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const select = (pane: PaneName) => openPane(view.sessionId, pane);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    e.preventDefault();
    const next = (index + step + TABS.length) % TABS.length;
    select(TABS[next].pane);
    tabs.current[next]?.focus();
  };
  return (
    <section className="panes" aria-label="Session panes">
      <div role="tablist" aria-label="Panes" className="tablist">
        {TABS.map(({ pane, label }, i) => (
          <button
            key={pane}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${pane}`}
            aria-selected={view.pane === pane}
            aria-controls={view.pane === pane ? `panel-${pane}` : undefined}
            tabIndex={view.pane === pane ? 0 : -1}
            onClick={() => select(pane)}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`panel-${view.pane}`}
        aria-labelledby={`tab-${view.pane}`}
        className="tabpanel"
        tabIndex={0}
      >
        <PaneBody view={view} />
      </div>
    </section>
  );
}
