import { useCallback, useEffect, useState } from 'react';
import { errorText, get, post } from '../api';
import { bytes } from '../format';
import { useAction, useRevealWhen } from '../hooks';
import type { SessionView, Snapshot, TurnSnapshot } from '@sessionboxer/contracts';
import { navigate, sessionPath } from '../router';
import type { SessionState } from '../store';
import { useConfirm } from './ConfirmDialog';
import { ErrorAlert } from './FormParts';

/** Revert the session to the snapshot (saying so once done), or fork a new session off it. */
function useSnapshotActions(sessionId: string, snapshot: Snapshot) {
  const { busy, error, run } = useAction();
  const { confirm, dialog } = useConfirm();
  const [done, setDone] = useState('');
  const route = `/api/sessions/${sessionId}/snapshots/${snapshot.id}`;
  const revert = async () => {
    const yes = await confirm({
      title: `Revert to Snapshot ${snapshot.ordinal}?`,
      body: `The workspace goes back to Snapshot ${snapshot.ordinal}: changes made since it are lost.`,
      action: 'Revert',
    });
    if (yes)
      await run(async () => {
        await post(`${route}/revert`);
        setDone(`Reverted to Snapshot ${snapshot.ordinal}`);
      });
  };
  const fork = () =>
    run(async () => {
      const created = await post<SessionView>(`${route}/fork`, {});
      navigate(sessionPath(created.id));
    });
  return { busy, error, done, revert, fork, dialog };
}

interface ItemProps {
  sessionId: string;
  snapshot: Snapshot;
  focused: boolean;
}

function SnapshotItem({ sessionId, snapshot, focused }: ItemProps) {
  const { busy, error, done, revert, fork, dialog } = useSnapshotActions(sessionId, snapshot);
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
      {dialog}
    </li>
  );
}

interface Props {
  sessionId: string;
  snapshots: Snapshot[];
  focus: SessionState['focus'];
}

/** A turn's automatic snapshot: fork a new session from that turn, or rewind this one to it. */
function TurnSnapshotItem({
  sessionId,
  snapshot,
  focused,
}: {
  sessionId: string;
  snapshot: TurnSnapshot;
  focused: boolean;
}) {
  const { busy, error, run } = useAction();
  const { confirm, dialog } = useConfirm();
  const ref = useRevealWhen<HTMLLIElement>(focused);
  const [done, setDone] = useState('');
  const { turn } = snapshot;
  const rewind = async () => {
    const yes = await confirm({
      title: `Rewind to turn ${turn}?`,
      body: `The workspace goes back to how turn ${turn} left it: changes made since are lost.`,
      action: 'Rewind',
    });
    if (yes)
      await run(async () => {
        await post(`/api/sessions/${sessionId}/snapshots/turns/${turn}/revert`);
        setDone(`Rewound to turn ${turn}`);
      });
  };
  const fork = () =>
    run(async () => {
      const created = await post<SessionView>(
        `/api/sessions/${sessionId}/snapshots/${snapshot.id}/fork`,
        {},
      );
      navigate(sessionPath(created.id));
    });
  return (
    <li
      ref={ref}
      id={`snapshot-${snapshot.id}`}
      className={focused ? 'card snapshot focused' : 'card snapshot'}
    >
      <h3>Turn {turn}</h3>
      <p className="muted">
        {new Date(snapshot.createdAt).toLocaleString()} · {snapshot.files} files,{' '}
        {bytes(snapshot.sizeBytes)} · {bytes(snapshot.newBytes)} new
      </p>
      <div className="row">
        <button type="button" disabled={busy} onClick={() => void fork()}>
          Fork from turn {turn}
        </button>
        <button type="button" disabled={busy} onClick={() => void rewind()}>
          Rewind to turn {turn}
        </button>
        <span role="status" className="muted">
          {done}
        </span>
      </div>
      <ErrorAlert error={error} />
      {dialog}
    </li>
  );
}

/** The snapshots taken at each turn's end, read when the pane shows and on Refresh. */
function TurnSnapshots({ sessionId, focus }: { sessionId: string; focus: SessionState['focus'] }) {
  const shown = focus?.n ?? 0;
  const [turns, setTurns] = useState<TurnSnapshot[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    get<TurnSnapshot[]>(`/api/sessions/${sessionId}/snapshots/turns`)
      .then((t) => {
        setTurns(t);
        setError(null);
      })
      .catch((e: unknown) => setError(errorText(e)));
  }, [sessionId]);
  useEffect(load, [load, shown]);
  return (
    <section aria-label="Turn snapshots">
      <h3>
        From a turn{' '}
        <button type="button" onClick={load}>
          Refresh
        </button>
      </h3>
      {error && <p className="error">{error}</p>}
      {turns.length === 0 ? (
        <p className="muted">No turn has ended yet.</p>
      ) : (
        <ul className="pane-list" aria-label="Turns">
          {[...turns].reverse().map((t) => (
            <TurnSnapshotItem
              key={t.id}
              sessionId={sessionId}
              snapshot={t}
              focused={focus?.snapshotId === t.id}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The session's snapshots, Snapshot 1 first, each with Revert and Fork; then the ones taken at
 * each turn's end (newest first), each with Fork from turn N and Rewind to turn N.
 */
export function SnapshotsPane({ sessionId, snapshots, focus }: Props) {
  return (
    <>
      {snapshots.length === 0 ? (
        <p className="muted">No snapshots yet.</p>
      ) : (
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
      )}
      <TurnSnapshots sessionId={sessionId} focus={focus} />
    </>
  );
}
