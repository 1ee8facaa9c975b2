import type { ScheduleCreated, ScheduleEvent } from '@sessionboxer/domain';
import { ProjectionSpecification } from '../test/projection-spec';
import { recorded } from '../test/recorded-events';
import { scheduleQueries, schedulesProjection, type ScheduleDoc } from './schedules.projection';
import { listMarkers, transcriptMarkersProjection } from './transcript-markers.projection';

const spec = ProjectionSpecification.for(schedulesProjection);
const AT = '2026-01-02T03:04:05.000Z';
const FOR = '2026-01-02T09:00:00.000Z';
const PROMPT = { type: 'prompt' as const, sessionId: 's1', text: 'Run the report' };

function created(id: string, data: Partial<ScheduleCreated['data']> = {}): ScheduleCreated {
  return {
    type: 'ScheduleCreated',
    data: {
      scheduleId: id,
      name: `Task ${id}`,
      cron: '0 9 * * *',
      timezone: 'UTC',
      action: PROMPT,
      skipMissed: true,
      createdBy: { sessionId: 's1' },
      at: AT,
      ...data,
    },
  };
}
const on = (type: 'ScheduleEnabled' | 'ScheduleDisabled' | 'ScheduleDeleted', id = 'a') =>
  ({ type, data: { scheduleId: id, at: AT } }) as ScheduleEvent;
const ran = (ok: boolean, scheduledFor = FOR): ScheduleEvent => ({
  type: 'ScheduleRunRecorded',
  data: {
    scheduleId: 'a',
    scheduledFor,
    outcome: { ok, detail: ok ? 'prompted' : 'no such session' },
    at: AT,
  },
});

function doc(id: string, overrides: Partial<ScheduleDoc> = {}): ScheduleDoc {
  return {
    id,
    name: `Task ${id}`,
    cron: '0 9 * * *',
    timezone: 'UTC',
    enabled: true,
    action: PROMPT,
    skipMissed: true,
    createdBy: { sessionId: 's1' },
    createdAt: AT,
    lastRunAt: null,
    lastRun: null,
    runs: [],
    ...overrides,
  };
}

describe('schedules projection', () => {
  describe('no schedules', () => {
    it('lists nothing', () => {
      spec.given([]).thenQuery((r) => scheduleQueries(r).list(), []);
    });
  });

  describe('two schedules', () => {
    it('lists them in creation order, enabled, never run', () => {
      spec
        .given(recorded([created('b'), created('a')]))
        .thenQuery((r) => scheduleQueries(r).list(), [doc('b'), doc('a')]);
    });

    it('follows disable and enable, and keeps their order', () => {
      spec.given(recorded([created('a'), created('b'), on('ScheduleDisabled')])).thenQuery(
        (r) =>
          scheduleQueries(r)
            .list()
            .map((d) => [d.id, d.enabled]),
        [
          ['a', false],
          ['b', true],
        ],
      );
      spec
        .given(recorded([created('a'), on('ScheduleDisabled'), on('ScheduleEnabled')]))
        .thenQuery((r) => scheduleQueries(r).get('a')?.enabled, true);
    });

    it('follows skip policy changes, and keeps the order', () => {
      const policy = (skipMissed: boolean, id = 'a'): ScheduleEvent => ({
        type: 'ScheduleSkipPolicyChanged',
        data: { scheduleId: id, skipMissed, at: AT },
      });
      spec
        .given(recorded([created('a'), created('b'), policy(false)]))
        .thenQuery((r) => scheduleQueries(r).list(), [doc('a', { skipMissed: false }), doc('b')]);
      spec
        .given(
          recorded([created('a', { skipMissed: false }), policy(true), on('ScheduleDisabled')]),
        )
        .then({ a: doc('a', { skipMissed: true, enabled: false }) });
      spec
        .given(recorded([created('a'), on('ScheduleDeleted'), policy(false)]))
        .thenQuery((r) => scheduleQueries(r).list(), []);
    });

    it('keeps the last run: its occurrence (the skip policy starts there) and outcome', () => {
      const later = '2026-01-03T09:00:00.000Z';
      spec.given(recorded([created('a'), ran(true), ran(false, later)])).then({
        a: doc('a', {
          lastRunAt: later,
          lastRun: { ok: false, detail: 'no such session', at: AT },
          runs: [
            { scheduledFor: later, ok: false, detail: 'no such session', at: AT, sessionId: null },
            { scheduledFor: FOR, ok: true, detail: 'prompted', at: AT, sessionId: null },
          ],
        }),
      });
    });

    it('keeps the latest 20 runs, newest first, each with the session it started', () => {
      const runs = Array.from({ length: 22 }, (_, i): ScheduleEvent => {
        const scheduledFor = new Date(Date.parse(FOR) + i * 60_000).toISOString();
        const outcome = { ok: true, detail: `started session s${i}`, sessionId: `s${i}` };
        return {
          type: 'ScheduleRunRecorded',
          data: { scheduleId: 'a', scheduledFor, outcome, at: AT },
        };
      });
      spec.given(recorded([created('a'), ...runs])).thenQuery(
        (r) => {
          const kept = scheduleQueries(r).get('a')?.runs ?? [];
          return [kept.length, kept[0].sessionId, kept[19].sessionId];
        },
        [20, 's21', 's2'],
      );
    });

    it('forgets a deleted one', () => {
      spec
        .given(recorded([created('a'), created('b'), on('ScheduleDeleted'), ran(true)]))
        .then({ b: doc('b') });
    });
  });
});

describe('"scheduled …" markers', () => {
  const markers = ProjectionSpecification.for(transcriptMarkersProjection);
  const texts = (sessionId: string) => (r: Parameters<typeof listMarkers>[0]) =>
    listMarkers(r, sessionId).map((m) => [m.kind, m.text, m.link]);

  it("says in the creating agent's transcript what it scheduled", () => {
    const events = recorded([
      created('a', { name: 'Nightly report', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' }),
      created('b', {
        name: 'Triage',
        action: {
          type: 'new_session',
          title: null,
          provider: null,
          repos: [],
          prompt: 'Triage issues',
          stopAfter: true,
        },
      }),
    ]);
    markers.given(events).thenQuery(texts('s1'), [
      [
        'schedule-created',
        'scheduled “Nightly report” (0 9 * * 1-5, Europe/Paris): a prompt each time',
        { scheduleId: 'a' },
      ],
      [
        'schedule-created',
        'scheduled “Triage” (0 9 * * *, UTC): a new Session each time',
        { scheduleId: 'b' },
      ],
    ]);
  });

  it("writes none for a person's schedule, nor for its runs", () => {
    markers
      .given(recorded([created('a', { createdBy: null }), ran(true)]))
      .thenQuery((r) => listMarkers(r, 's1'), []);
  });
});
