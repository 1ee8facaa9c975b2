import { useId, useState, type FormEvent } from 'react';
import { titleProblem } from '@sessionboxer/domain/limits';
import { del, patch, post } from '../api';
import { environmentName, providerName } from '../format';
import { useAction } from '../hooks';
import { Link, navigate, sessionPath } from '../router';
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

/**
 * The title edited in place: checked with the server's rule (titleProblem) before it is sent,
 * the problem shown under the field; Escape or Cancel leave the title as it was.
 */
function RenameForm(props: { sessionId: string; title: string; onDone: () => void }) {
  const { sessionId, title, onDone } = props;
  const [value, setValue] = useState(title);
  const [shown, setShown] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = titleProblem(value);
    setShown(problem);
    if (problem !== null) return;
    await run(async () => {
      const updated = await patch<SessionView>(`/api/sessions/${sessionId}`, { title: value });
      applyActionResult(sessionId, { session: updated });
      onDone();
    });
  };
  return (
    <form className="rename-form" onSubmit={(e) => void submit(e)}>
      <label htmlFor={`${id}-title`}>Session title</label>
      <div className="row">
        <input
          id={`${id}-title`}
          value={value}
          autoFocus
          aria-invalid={shown !== null}
          aria-describedby={shown === null ? undefined : `${id}-problem`}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && onDone()}
        />
        <button type="submit" disabled={busy}>
          Save title
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {shown !== null && (
        <p id={`${id}-problem`} className="error" role="alert">
          {shown}
        </p>
      )}
      <ErrorAlert error={error} />
    </form>
  );
}

/** Archive / unarchive, and Delete once the person confirms (the server refuses a running one). */
function useManage(sessionId: string, title: string, archived: boolean) {
  const { busy, error, run } = useAction();
  const { confirm, dialog } = useConfirm();
  const toggleArchived = () =>
    run(async () => {
      const route = archived ? 'unarchive' : 'archive';
      const updated = await post<SessionView>(`/api/sessions/${sessionId}/${route}`);
      applyActionResult(sessionId, { session: updated });
    });
  const remove = async () => {
    const sure = await confirm({
      title: 'Delete this session?',
      body: `“${title}” leaves every list and its box and snapshots are removed. Its history stays for audits.`,
      action: 'Delete session',
    });
    if (!sure) return;
    await run(async () => {
      await del(`/api/sessions/${sessionId}`);
      navigate('/');
    });
  };
  return { busy, error, toggleArchived, remove, dialog };
}

/** The session's title (the page's h1), what it runs, and its actions. */
export function SessionHeader(props: Props) {
  const { sessionId, title, session, status, activity, settingsOpen, onToggleSettings } = props;
  const { busy, error, toggle, dialog } = useStopResume(sessionId, title, status);
  const archived = session?.archived === true;
  const manage = useManage(sessionId, title, archived);
  const [renaming, setRenaming] = useState(false);
  return (
    <div className="session-header">
      <div className="session-title">
        {renaming ? (
          <RenameForm sessionId={sessionId} title={title} onDone={() => setRenaming(false)} />
        ) : (
          <h1>{title}</h1>
        )}
        <SessionFacts session={session} activity={activity} />
        {session?.box?.failure && <p className="error">The box failed: {session.box.failure}</p>}
      </div>
      <div className="row session-actions">
        <button type="button" disabled={busy} onClick={() => void toggle()}>
          {status === 'running' ? 'Stop session' : 'Resume session'}
        </button>
        {!renaming && (
          <button type="button" onClick={() => setRenaming(true)}>
            Rename
          </button>
        )}
        <button type="button" disabled={manage.busy} onClick={() => void manage.toggleArchived()}>
          {archived ? 'Unarchive' : 'Archive'}
        </button>
        <button type="button" disabled={manage.busy} onClick={() => void manage.remove()}>
          Delete
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
      <ErrorAlert error={manage.error} />
      {dialog}
      {manage.dialog}
    </div>
  );
}
