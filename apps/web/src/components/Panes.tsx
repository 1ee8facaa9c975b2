import { useRef, type KeyboardEvent } from 'react';
import type { PaneName } from '../view-types';
import type { SessionState } from '../store';
import { openPane } from '../view-state';
import { AutoQaPane } from './AutoQaPane';
import { ChangesPane } from './ChangesPane';
import { DesktopPane } from './desktop/DesktopPane';
import { FilesPane } from './files/FilesPane';
import { PrsPane } from './PrsPane';
import { RecordingsPane } from './RecordingsPane';
import { SnapshotsPane } from './SnapshotsPane';
import { TerminalsPane } from './TerminalsPane';
import { TimelinePane } from './TimelinePane';

const TABS: { pane: PaneName; label: string }[] = [
  { pane: 'prs', label: 'PRs' },
  { pane: 'changes', label: 'Changes' },
  { pane: 'files', label: 'Files' },
  { pane: 'desktop', label: 'Desktop' },
  { pane: 'autoqa', label: 'Auto QA' },
  { pane: 'terminals', label: 'Terminals' },
  { pane: 'snapshots', label: 'Snapshots' },
  { pane: 'recordings', label: 'Recordings' },
  { pane: 'timeline', label: 'Timeline' },
];

function PaneBody({ view }: { view: SessionState }) {
  const { sessionId, parts, focus } = view;
  switch (view.pane) {
    case 'prs':
      return <PrsPane prs={parts.prs} />;
    case 'changes':
      return <ChangesPane sessionId={sessionId} />;
    case 'files':
      return <FilesPane sessionId={sessionId} />;
    case 'desktop':
      return <DesktopPane sessionId={sessionId} />;
    case 'autoqa':
      return <AutoQaPane sessionId={sessionId} runs={parts.verifications} focus={focus} />;
    case 'terminals':
      return <TerminalsPane sessionId={sessionId} terminals={parts.terminals} focus={focus} />;
    case 'snapshots':
      return <SnapshotsPane sessionId={sessionId} snapshots={parts.snapshots} focus={focus} />;
    case 'recordings':
      return <RecordingsPane sessionId={sessionId} recordings={parts.recordings} focus={focus} />;
    case 'timeline':
      return <TimelinePane sessionId={sessionId} />;
  }
}

/** The tabs, one per pane; Left and Right move to the next one and open it. */
function PaneTabs({
  current,
  onSelect,
}: {
  current: PaneName;
  onSelect: (pane: PaneName) => void;
}) {
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    e.preventDefault();
    const next = (index + step + TABS.length) % TABS.length;
    onSelect(TABS[next].pane);
    tabs.current[next]?.focus();
  };
  return (
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
          aria-selected={current === pane}
          aria-controls={current === pane ? `panel-${pane}` : undefined}
          tabIndex={current === pane ? 0 : -1}
          onClick={() => onSelect(pane)}
          onKeyDown={(e) => onKeyDown(e, i)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/**
 * The session's panes as tabs. Which one shows lives in the store, so a marker's link and an
 * agent's ui_open (the `pane` frame) open one the same way a click does.
 */
export function Panes({ view }: { view: SessionState }) {
  return (
    <section className="panes" aria-label="Session panes">
      <PaneTabs current={view.pane} onSelect={(pane) => openPane(view.sessionId, pane)} />
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
