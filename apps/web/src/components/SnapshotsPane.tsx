import { useState } from 'react';
import { post } from '../api';
import { bytes } from '../format';
import { useAction, useRevealWhen } from '../hooks';
import type { SessionView, Snapshot } from '@sessionboxer/contracts';
import { navigate, sessionPath } from '../router';
import type { SessionState } from '../store';
import { ErrorAlert } from './FormParts';

/** Revert the session to the snapshot (saying so once done), or fork a new session off it. */
function useSnapshotActions(sessionId: string, snapshot: Snapshot) {
  const { busy, error, run } = useAction();
  const [done, setDone] = useState('');
  const route = `/api/sessions/${sessionId}/snapshots/${snapshot.id}`;
  const revert = () =>
    run(async () => {
      await post(`${route}/revert`);
      setDone(`Reverted to Snapshot ${snapshot.ordinal}`);
    });
  const fork = () =>
    run(async () => {
      const created = await post<SessionView>(`${route}/fork`, {});
      navigate(sessionPath(created.id));
    });
  return { busy, error, done, revert, fork };
}

interface ItemProps {
  sessionId: string;
  snapshot: Snapshot;
  focused: boolean;
}

function SnapshotItem({ sessionId, snapshot, focused }: ItemProps) {
  const { busy, error, done, revert, fork } = useSnapshotActions(sessionId, snapshot);
  const ref = useRevealWhen<HTMLLIElement>(focused);
  return (
    <li
      ref={ref}
      id={`snapshot-${snapshot.id}`}
      className={focused ? 'card snapshot focused' : 'card snapshot'}
    >
      <h3>Snapshot {snapshot.ordinal}</h3>
      <p className="muted">
        {new Date(snapshot.createdAt).toLocaleString()} · {bytes(snapshot.sizeBytes)}
      </p>
      <div className="row">
        <button type="button" disabled={busy} onClick={() => void revert()}>
          Revert
        </button>
        <button type="button" disabled={busy} onClick={() => void fork()}>
          Fork
        </button>
        <span role="status" className="muted">
          {done}
        </span>
      </div>
      <ErrorAlert error={error} />
    </li>
  );
}

interface Props {
  sessionId: string;
  snapshots: Snapshot[];
  focus: SessionState['focus'];
}

/** The session's snapshots, Snapshot 1 first, each with Revert and Fork. */
export function SnapshotsPane({ sessionId, snapshots, focus }: Props) {
  if (snapshots.length === 0) return <p className="muted">No snapshots yet.</p>;
  return (
    <ul className="pane-list" aria-label="Snapshots">
      {snapshots.map((s) => (
        <SnapshotItem
          key={s.id}
          sessionId={sessionId}
          snapshot={s}
          focused={focus?.snapshotId === s.id}
        />
      ))}
    </ul>
  );
}
