import { post } from '../api';
import { environmentName, providerName } from '../format';
import { useAction } from '../hooks';
import { Link, sessionPath } from '../router';
import type { SessionView } from '@sessionboxer/contracts';
import { applyActionResult, type Activity } from '../view-state';
import { useConfirm } from './ConfirmDialog';
import { ErrorAlert } from './FormParts';

type Status = 'running' | 'stopped';

interface Props {
  sessionId: string;
  title: string;
  session: SessionView | null;
  status: Status;
  /** What the chip says: idle or working on a turn (from the transcript), or stopped. */
  activity: Activity;
  settingsOpen: boolean;
  onToggleSettings: () => void;
}

/** What the session runs (provider, model, environment, its box) and whose child it is. */
function SessionFacts({ session, activity }: { session: SessionView | null; activity: Activity }) {
  return (
    <p className="session-facts">
      <span className={`status status-${activity}`}>{activity}</span>
      {session && (
        <>
          <span>{providerName(session.provider)}</span>
          <span>{session.model}</span>
          <span>{environmentName(session.environment)}</span>
          {session.box && <span>box {session.box.status}</span>}
        </>
      )}
      {session?.childOf && (
        <span>
          child of <Link to={sessionPath(session.childOf.sessionId)}>{session.childOf.title}</Link>
        </span>
      )}
    </p>
  );
}

/** Stop (once the person confirms) or resume the session; the answer is its new state. */
function useStopResume(sessionId: string, title: string, status: Status) {
  const { busy, error, run } = useAction();
  const { confirm, dialog } = useConfirm();
  const toggle = async () => {
    if (
      status === 'running' &&
      !(await confirm({
        title: 'Stop this session?',
        body: `“${title}” stops: a turn that is running is cut short and its box is stopped. Resume starts it again.`,
        action: 'Stop session',
      }))
    )
      return;
    await run(async () => {
      const route = status === 'running' ? 'stop' : 'resume';
      const updated = await post<SessionView>(`/api/sessions/${sessionId}/${route}`);
      applyActionResult(sessionId, { session: updated });
    });
  };
  return { busy, error, toggle, dialog };
}

/** The session's title (the page's h1), what it runs, and Stop / Resume, Session settings. */
export function SessionHeader(props: Props) {
  const { sessionId, title, session, status, activity, settingsOpen, onToggleSettings } = props;
  const { busy, error, toggle, dialog } = useStopResume(sessionId, title, status);
  return (
    <div className="session-header">
      <div className="session-title">
        <h1>{title}</h1>
        <SessionFacts session={session} activity={activity} />
        {session?.box?.failure && <p className="error">The box failed: {session.box.failure}</p>}
      </div>
      <div className="row session-actions">
        <button type="button" disabled={busy} onClick={() => void toggle()}>
          {status === 'running' ? 'Stop session' : 'Resume session'}
        </button>
        <button
          type="button"
          aria-expanded={settingsOpen}
          aria-controls="session-settings"
          onClick={onToggleSettings}
        >
          Session settings
        </button>
      </div>
      <ErrorAlert error={error} />
      {dialog}
    </div>
  );
}
