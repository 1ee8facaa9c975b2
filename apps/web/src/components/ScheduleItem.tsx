import { del, patch } from '../api';
import { useAction, useSavedToggle, useTitleOf } from '../hooks';
import { Link, sessionPath } from '../router';
import type { ScheduleView } from '@sessionboxer/contracts';
import { useConfirm } from './ConfirmDialog';
import { CheckboxField, ErrorAlert } from './FormParts';

function actionText(s: ScheduleView, titleOf: (id: string) => string | null): string {
  if (s.action.type === 'prompt') {
    const target = titleOf(s.action.sessionId) ?? s.action.sessionId;
    return `Prompts “${target}”: ${s.action.text}`;
  }
  const stop = s.action.stopAfter ? ', stopped after its first turn' : '';
  return `Starts a new session${s.action.title ? ` “${s.action.title}”` : ''}${stop}: ${s.action.prompt}`;
}

/** The latest runs, newest first: when, how it went, and a link to the session each started. */
function ScheduleRuns({ schedule }: { schedule: ScheduleView }) {
  const titleOf = useTitleOf();
  if (schedule.runs.length === 0) return null;
  return (
    <details className="schedule-runs">
      <summary>Recent runs ({schedule.runs.length})</summary>
      <ul aria-label={`Runs of ${schedule.name}`}>
        {schedule.runs.map((run) => (
          <li key={run.scheduledFor}>
            {new Date(run.scheduledFor).toLocaleString()} ·{' '}
            <span className={run.ok ? 'badge badge-passed' : 'badge badge-failed'}>
              {run.ok ? 'ran' : 'failed'}
            </span>{' '}
            {run.sessionId ? (
              <Link to={sessionPath(run.sessionId)}>
                {titleOf(run.sessionId) ?? `session ${run.sessionId.slice(0, 8)}`}
              </Link>
            ) : (
              <span className="muted">{run.detail}</span>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The task's name, when it runs, what it does, and its next and last runs. */
function ScheduleFacts({ schedule }: { schedule: ScheduleView }) {
  const titleOf = useTitleOf();
  return (
    <>
      <h3 id={`schedule-${schedule.id}`}>{schedule.name}</h3>
      <p>
        <code>{schedule.cron}</code> ({schedule.timezone}) ·{' '}
        <span className={schedule.enabled ? 'badge badge-passed' : 'badge badge-skipped'}>
          {schedule.enabled ? 'enabled' : 'disabled'}
        </span>
      </p>
      <p>{actionText(schedule, titleOf)}</p>
      <p className="muted">
        Next run: {schedule.nextRunAt ? new Date(schedule.nextRunAt).toLocaleString() : '—'} · Last
        run: {schedule.lastRunAt ? new Date(schedule.lastRunAt).toLocaleString() : 'never'}
      </p>
    </>
  );
}

interface Props {
  schedule: ScheduleView;
  onChange: (s: ScheduleView) => void;
  onDeleted: (id: string) => void;
}

/** One scheduled task, with its skip policy, Enable / Disable and Delete. */
export function ScheduleItem({ schedule, onChange, onDeleted }: Props) {
  const { busy, error, run } = useAction();
  const route = `/api/schedules/${schedule.id}`;
  const set = (body: Partial<Pick<ScheduleView, 'enabled'>>) =>
    run(async () => onChange({ ...schedule, ...(await patch<ScheduleView>(route, body)) }));
  const skip = useSavedToggle(schedule.skipMissed ?? true, async (skipMissed) =>
    onChange({ ...schedule, ...(await patch<ScheduleView>(route, { skipMissed })) }),
  );
  const { confirm, dialog } = useConfirm();
  const remove = async () => {
    const yes = await confirm({
      title: `Delete the scheduled task “${schedule.name}”?`,
      body: 'It will not run again; deleting cannot be undone.',
      action: 'Delete',
    });
    if (yes)
      await run(async () => {
        await del(route);
        onDeleted(schedule.id);
      });
  };
  return (
    <li className="card schedule" aria-labelledby={`schedule-${schedule.id}`}>
      <ScheduleFacts schedule={schedule} />
      <ScheduleRuns schedule={schedule} />
      <CheckboxField
        id={`skip-${schedule.id}`}
        checked={skip.checked}
        disabled={busy || skip.busy}
        onChange={skip.set}
      >
        Skip runs missed while Sessionboxer was down
      </CheckboxField>
      <ErrorAlert error={skip.error} />
      <div className="row">
        <button
          type="button"
          disabled={busy}
          onClick={() => void set({ enabled: !schedule.enabled })}
        >
          {schedule.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => void remove()}>
          Delete
        </button>
      </div>
      <ErrorAlert error={error} />
      {dialog}
    </li>
  );
}
