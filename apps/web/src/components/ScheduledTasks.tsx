import { useEffect, useState } from 'react';
import { del, errorText, get, patch } from '../api';
import { useAction, useTitleOf } from '../hooks';
import type { Schedule } from '../settings-types';

function actionText(s: Schedule, titleOf: (id: string) => string | null): string {
  if (s.action.type === 'prompt') {
    const target = titleOf(s.action.sessionId) ?? s.action.sessionId;
    return `Prompts “${target}”: ${s.action.text}`;
  }
  const stop = s.action.stopAfter ? ', stopped after its first turn' : '';
  return `Starts a new session${s.action.title ? ` “${s.action.title}”` : ''}${stop}: ${s.action.prompt}`;
}

function ScheduleItem({
  schedule,
  onChange,
  onDeleted,
}: {
  schedule: Schedule;
  onChange: (s: Schedule) => void;
  onDeleted: (id: string) => void;
}) {
  const { busy, error, run } = useAction();
  const titleOf = useTitleOf();
  const route = `/api/schedules/${schedule.id}`;
  const skip = schedule.skipMissed ?? true;
  const set = (body: Partial<Pick<Schedule, 'enabled' | 'skipMissed'>>) =>
    run(async () => onChange({ ...schedule, ...(await patch<Schedule>(route, body)) }));
  const skipId = `skip-${schedule.id}`;
  return (
    <li className="card schedule" aria-labelledby={`schedule-${schedule.id}`}>
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
      <div className="field checkbox">
        <input
          id={skipId}
          type="checkbox"
          checked={skip}
          disabled={busy}
          onChange={(e) => void set({ skipMissed: e.target.checked })}
        />
        <label htmlFor={skipId}>Skip runs missed while Sessionboxer was down</label>
      </div>
      <div className="row">
        <button
          type="button"
          disabled={busy}
          onClick={() => void set({ enabled: !schedule.enabled })}
        >
          {schedule.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await del(route);
              onDeleted(schedule.id);
            })
          }
        >
          Delete
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </li>
  );
}

/** Every scheduled task on the control plane: enable, disable, the skip policy, delete. */
export function ScheduledTasks() {
  const [schedules, setSchedules] = useState<Schedule[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    get<Schedule[]>('/api/schedules')
      .then(setSchedules)
      .catch((e: unknown) => setError(errorText(e)));
  }, []);
  const replace = (s: Schedule) =>
    setSchedules((list) => list?.map((x) => (x.id === s.id ? s : x)) ?? null);
  const remove = (id: string) => setSchedules((list) => list?.filter((x) => x.id !== id) ?? null);

  return (
    <section className="card" aria-labelledby="scheduled-tasks">
      <h2 id="scheduled-tasks">Scheduled tasks</h2>
      {error && <p className="error">{error}</p>}
      {schedules === null && !error && <p className="muted">Loading…</p>}
      {schedules?.length === 0 && (
        <p className="muted">No scheduled tasks. An agent creates them with schedule_create.</p>
      )}
      {schedules && schedules.length > 0 && (
        <ul className="pane-list" aria-label="Scheduled tasks">
          {schedules.map((s) => (
            <ScheduleItem key={s.id} schedule={s} onChange={replace} onDeleted={remove} />
          ))}
        </ul>
      )}
    </section>
  );
}
