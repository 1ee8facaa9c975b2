import { useState } from 'react';
import { useStore } from '../store';
import { NewSessionForm } from './NewSessionForm';
import { SessionTree } from './SessionTree';

/** The sessions' tree, live from the `sidebar` frames, and the New session form. */
export function Sidebar({ currentId }: { currentId: string | null }) {
  const nodes = useStore((s) => s.sidebar);
  const [creating, setCreating] = useState(false);
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
      {nodes === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <SessionTree nodes={nodes} currentId={currentId} />
      )}
      {nodes !== null && nodes.length === 0 && <p className="muted">No sessions yet.</p>}
    </nav>
  );
}
