import { useEffect, useState } from 'react';
import { errorText, get } from '../api';
import type { ScheduleView } from '@sessionboxer/contracts';
import { ScheduleItem } from './ScheduleItem';

/** Every scheduled task on the control plane: enable, disable, the skip policy, delete. */
export function ScheduledTasks() {
  const [schedules, setSchedules] = useState<ScheduleView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    get<ScheduleView[]>('/api/schedules')
      .then(setSchedules)
      .catch((e: unknown) => setError(errorText(e)));
  }, []);
  const replace = (s: ScheduleView) =>
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
