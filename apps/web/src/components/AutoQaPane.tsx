import { fileUrl } from '../api';
import { useRevealWhen } from '../hooks';
import type { VerificationCase, VerificationRun } from '@sessionboxer/contracts';
import type { SessionState } from '../store';
import { Video } from './Video';

function Case({ sessionId, item }: { sessionId: string; item: VerificationCase }) {
  const last = item.attempts[item.attempts.length - 1];
  return (
    <li className={`qa-case qa-${item.status}`}>
      <p>
        <span className="qa-index">{item.index}.</span> {item.title}{' '}
        <span className={`badge badge-${item.status}`}>{item.status}</span>
        {item.attempts.length > 1 && (
          <span className="muted"> (attempt {item.attempts.length})</span>
        )}
      </p>
      {last?.note && <p className="qa-note">{last.note}</p>}
      {last?.screenshot && (
        <img
          className="qa-shot"
          src={fileUrl(sessionId, last.screenshot)}
          alt={`Screenshot of case ${item.index}: ${item.title}`}
          loading="lazy"
        />
      )}
    </li>
  );
}

function Run({
  sessionId,
  run,
  focused,
}: {
  sessionId: string;
  run: VerificationRun;
  focused: boolean;
}) {
  const ref = useRevealWhen<HTMLElement>(focused);
  return (
    <article
      ref={ref}
      className={focused ? 'card qa-run focused' : 'card qa-run'}
      aria-label={`Auto QA run: ${run.brief}`}
    >
      <h3>{run.brief}</h3>
      <p>
        <span className={`badge badge-${run.status}`}>{run.status}</span>{' '}
        <span className="muted">opened {new Date(run.openedAt).toLocaleString()}</span>
      </p>
      {run.skipReason && <p>Skipped: {run.skipReason}</p>}
      {run.cases.length > 0 && (
        <ol className="qa-cases" aria-label="Cases">
          {run.cases.map((c) => (
            <Case key={c.index} sessionId={sessionId} item={c} />
          ))}
        </ol>
      )}
      {run.summary && <p>{run.summary}</p>}
      {run.video && (
        <Video sessionId={sessionId} path={run.video} label={`Video of ${run.brief}`} />
      )}
    </article>
  );
}

interface Props {
  sessionId: string;
  runs: VerificationRun[];
  focus: SessionState['focus'];
}

/** The session's Auto QA runs, newest first: brief, cases with status, note and screenshot, video. */
export function AutoQaPane({ sessionId, runs, focus }: Props) {
  if (runs.length === 0) return <p className="muted">No Auto QA runs yet.</p>;
  return (
    <div className="pane-list">
      {[...runs].reverse().map((run) => (
        <Run key={run.id} sessionId={sessionId} run={run} focused={focus?.runId === run.id} />
      ))}
    </div>
  );
}
