import { useEffect, useState } from 'react';
import { clock, plural } from '../format';
import type { Recording } from '@sessionboxer/contracts';
import type { SessionState } from '../store';
import { RecordingPlayer } from './RecordingPlayer';

interface Props {
  sessionId: string;
  recordings: Recording[];
  focus: SessionState['focus'];
}

/** The session's recordings; one plays at a time (the newest, or the one a marker named). */
export function RecordingsPane({ sessionId, recordings, focus }: Props) {
  const [chosen, setChosen] = useState<string | null>(focus?.recording ?? null);
  useEffect(() => {
    if (focus?.recording) setChosen(focus.recording);
  }, [focus]);
  if (recordings.length === 0) return <p className="muted">No recordings yet.</p>;
  const current = recordings.find((r) => r.path === chosen) ?? recordings[recordings.length - 1];
  return (
    <div className="recordings">
      {recordings.length > 1 && (
        <ul className="recording-choices" aria-label="Recordings">
          {[...recordings].reverse().map((r) => (
            <li key={r.id}>
              <button
                type="button"
                aria-pressed={r.path === current.path}
                onClick={() => setChosen(r.path)}
              >
                {r.path.split('/').pop()} ({clock(r.seconds)}, {plural(r.captions.length, 'step')})
              </button>
            </li>
          ))}
        </ul>
      )}
      <h3>{current.path}</h3>
      <p className="muted">
        {clock(current.seconds)} · finished {new Date(current.finishedAt).toLocaleString()}
      </p>
      <RecordingPlayer key={current.path} sessionId={sessionId} recording={current} />
    </div>
  );
}
