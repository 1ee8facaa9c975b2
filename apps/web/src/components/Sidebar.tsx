import { useMemo, useState } from 'react';
import type { SidebarNode } from '@sessionboxer/contracts';
import { useStore } from '../store';
import { NewSessionForm } from './NewSessionForm';
import { SearchBox } from './search/SearchBox';
import { SessionTree } from './SessionTree';

/** The tree without archived sessions; an archived session's children take its place. */
export function withoutArchived(nodes: SidebarNode[]): SidebarNode[] {
  return nodes.flatMap((n) => {
    const children = withoutArchived(n.children);
    return n.archived ? children : [{ ...n, children }];
  });
}

/** The sessions' tree, live from the `sidebar` frames, and the New session form. */
export function Sidebar({ currentId }: { currentId: string | null }) {
  const all = useStore((s) => s.sidebar);
  const [creating, setCreating] = useState(false);
  const [showArchived, setShowArchived] = useState(false);
  const nodes = useMemo(
    () => (all === null || showArchived ? all : withoutArchived(all)),
    [all, showArchived],
  );
  return (
    <nav className="sidebar" aria-label="Sessions">
      <div className="sidebar-head">
        <h2>Sessions</h2>
        <button
          type="button"
          aria-expanded={creating}
          aria-controls="new-session-form"
          onClick={() => setCreating((c) => !c)}
        >
          New session
        </button>
      </div>
      {creating && <NewSessionForm onDone={() => setCreating(false)} />}
      <SearchBox />
      <div className="field checkbox">
        <input
          id="show-archived"
          type="checkbox"
          checked={showArchived}
          onChange={(e) => setShowArchived(e.target.checked)}
        />
        <label htmlFor="show-archived">Show archived</label>
      </div>
      {nodes === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <SessionTree nodes={nodes} currentId={currentId} />
      )}
      {nodes !== null && nodes.length === 0 && <p className="muted">No sessions yet.</p>}
    </nav>
  );
}
