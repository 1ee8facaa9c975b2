import { ErrorCode, type Actor } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import type { CreateSchedule, ScheduleCommand } from './schedule.commands';
import { scheduleDecider, scheduleStream } from './schedule.decider';
import type { ScheduleCreated, ScheduleEvent } from './schedule.events';

const spec = DeciderSpecification.for(scheduleDecider);
const AGENT: Actor = { kind: 'agent', sessionId: 's1' };
const FOR = '2026-01-02T09:00:00.000Z';
const PROMPT = { type: 'prompt' as const, sessionId: 's1', text: 'Run the nightly report' };

function create(data: Partial<CreateSchedule['data']> = {}): CreateSchedule {
  return {
    type: 'CreateSchedule',
    data: {
      scheduleId: 'sch1',
      name: 'Nightly report',
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      action: PROMPT,
      createdBy: { sessionId: 's1' },
      ...data,
    },
    metadata: meta({ actor: AGENT }),
  };
}

function created(data: Partial<ScheduleCreated['data']> = {}): ScheduleCreated {
  return {
    type: 'ScheduleCreated',
    data: {
      scheduleId: 'sch1',
      name: 'Nightly report',
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      action: PROMPT,
      skipMissed: true,
      createdBy: { sessionId: 's1' },
      at: AT,
      ...data,
    },
  };
}

const command = <C extends ScheduleCommand>(type: C['type'], data: C['data']) =>
  ({ type, data, metadata: meta() }) as C;
const enable = (enabled: boolean) => command('SetScheduleEnabled', { scheduleId: 'sch1', enabled });
const skipPolicy = (skipMissed: boolean) =>
  command('SetScheduleSkipPolicy', { scheduleId: 'sch1', skipMissed });
const skipPolicyChanged = (skipMissed: boolean): ScheduleEvent => ({
  type: 'ScheduleSkipPolicyChanged',
  data: { scheduleId: 'sch1', skipMissed, at: AT },
});
const remove = () => command('DeleteSchedule', { scheduleId: 'sch1' });
const recordRun = (scheduledFor = FOR, ok = true) =>
  command('RecordScheduleRun', { scheduleId: 'sch1', scheduledFor, outcome: { ok, detail: 'x' } });
const runRecorded = (scheduledFor = FOR): ScheduleEvent => ({
  type: 'ScheduleRunRecorded',
  data: { scheduleId: 'sch1', scheduledFor, outcome: { ok: true, detail: 'x' }, at: AT },
});

describe('schedule decider', () => {
  it('names its stream schedule-<id>', () => {
    expect(scheduleStream('sch1')).toBe('schedule-sch1');
  });

  describe('no schedule yet', () => {
    it('creates one with the skip policy on by default', () => {
      spec.given([]).when(create()).then([created()]);
    });

    it('fills in a new_session action: repos [], stopAfter true, no title or provider', () => {
      const action = { type: 'new_session' as const, prompt: 'Triage new issues' };
      spec
        .given([])
        .when(create({ action, createdBy: null, skipMissed: false }))
        .then([
          created({
            action: { ...action, title: null, provider: null, repos: [], stopAfter: true },
            createdBy: null,
            skipMissed: false,
          }),
        ]);
    });

    it.each([
      ['empty text', { ...PROMPT, text: '' }, /action.text must not be empty/],
      ['text over 20,000', { ...PROMPT, text: 'x'.repeat(20_001) }, /at most 20000 characters/],
      ['prompt over 20,000', { type: 'new_session', prompt: 'x'.repeat(20_001) }, /action.prompt/],
      ['an unknown type', { type: 'cancel' }, /action.type must be one of prompt, new_session/],
      ['an unknown field', { ...PROMPT, when: 'now' }, /unknown field when/],
      [
        'a stopAfter that is no boolean',
        { type: 'new_session', prompt: 'go', stopAfter: 'yes' },
        /action.stopAfter/,
      ],
      [
        'a provider that is no id',
        { type: 'new_session', prompt: 'go', provider: 'Claude Code' },
        /action.provider/,
      ],
    ])('refuses an action with %s', (_what, action, why) => {
      spec
        .given([])
        .when(create({ action: action as CreateSchedule['data']['action'] }))
        .thenThrows(ErrorCode.ValidationFailed, why);
    });

    it('takes 20,000 characters of text, over several lines', () => {
      const text = `${'x'.repeat(19_998)}\n.`;
      spec
        .given([])
        .when(create({ action: { ...PROMPT, text } }))
        .then([created({ action: { ...PROMPT, text } })]);
    });

    it('refuses an empty name and a cron over several lines', () => {
      spec
        .given([])
        .when(create({ name: ' ' }))
        .thenThrows(ErrorCode.ValidationFailed, /name/);
      spec
        .given([])
        .when(create({ cron: '* * *\n* *' }))
        .thenThrows(ErrorCode.ValidationFailed, /cron/);
    });

    it('has nothing to enable, change, delete or record', () => {
      spec
        .given([])
        .when(enable(false))
        .thenThrows(ErrorCode.NotFound, /does not exist/);
      spec
        .given([])
        .when(skipPolicy(false))
        .thenThrows(ErrorCode.NotFound, /schedule sch1 does not exist/);
      spec.given([]).when(remove()).thenThrows(ErrorCode.NotFound);
      spec.given([]).when(recordRun()).thenThrows(ErrorCode.NotFound);
    });
  });

  describe('an enabled schedule', () => {
    it('refuses a second create with the same id', () => {
      spec.given([created()]).when(create()).thenThrows(ErrorCode.AlreadyExists);
    });

    it('disables, and enabling it again changes nothing', () => {
      spec
        .given([created()])
        .when(enable(false))
        .then([{ type: 'ScheduleDisabled', data: { scheduleId: 'sch1', at: AT } }]);
      spec.given([created()]).when(enable(true)).thenNothing();
    });

    it('changes its skip policy, and the same policy again changes nothing', () => {
      spec
        .given([created()])
        .when(skipPolicy(false))
        .then([skipPolicyChanged(false)]);
      spec.given([created()]).when(skipPolicy(true)).thenNothing();
      spec
        .given([created({ skipMissed: false })])
        .when(skipPolicy(true))
        .then([skipPolicyChanged(true)]);
    });

    it('follows its latest skip policy: back to the first one is a change again', () => {
      spec
        .given([created(), skipPolicyChanged(false)])
        .when(skipPolicy(false))
        .thenNothing();
      spec
        .given([created(), skipPolicyChanged(false)])
        .when(skipPolicy(true))
        .then([skipPolicyChanged(true)]);
    });

    it('refuses a skip policy that is no boolean', () => {
      spec
        .given([created()])
        .when(skipPolicy('no' as unknown as boolean))
        .thenThrows(ErrorCode.ValidationFailed, /skipMissed/);
    });

    it('records a run once per occurrence: a fire delivered twice records nothing more', () => {
      spec.given([created()]).when(recordRun()).then([runRecorded()]);
      spec.given([created(), runRecorded()]).when(recordRun()).thenNothing();
      spec
        .given([created(), runRecorded()])
        .when(recordRun('2026-01-01T09:00:00.000Z'))
        .thenNothing();
      spec
        .given([created(), runRecorded()])
        .when(recordRun('2026-01-03T09:00:00.000Z'))
        .then([runRecorded('2026-01-03T09:00:00.000Z')]);
    });

    it('records the session a run started or prompted, and refuses a malformed id', () => {
      const withSession = (sessionId: string) =>
        command('RecordScheduleRun', {
          scheduleId: 'sch1',
          scheduledFor: FOR,
          outcome: { ok: true, detail: 'x', sessionId },
        });
      const recorded = runRecorded();
      spec
        .given([created()])
        .when(withSession('s-42'))
        .then([
          {
            ...recorded,
            data: { ...recorded.data, outcome: { ok: true, detail: 'x', sessionId: 's-42' } },
          } as ScheduleEvent,
        ]);
      spec
        .given([created()])
        .when(withSession(' s-42'))
        .thenThrows(ErrorCode.ValidationFailed, /outcome.sessionId/);
    });

    it('refuses a run time that is not a UTC time as toISOString writes it', () => {
      for (const time of ['tomorrow', '2026-01-03T09:00:00+01:00']) {
        spec
          .given([created()])
          .when(recordRun(time))
          .thenThrows(ErrorCode.ValidationFailed, /scheduledFor must be an ISO-8601 UTC time/);
      }
    });
  });

  describe('a disabled schedule', () => {
    const disabled: ScheduleEvent = {
      type: 'ScheduleDisabled',
      data: { scheduleId: 'sch1', at: AT },
    };

    it('enables again', () => {
      spec
        .given([created(), disabled])
        .when(enable(true))
        .then([{ type: 'ScheduleEnabled', data: { scheduleId: 'sch1', at: AT } }]);
    });

    it('changes its skip policy while off, and stays off', () => {
      spec
        .given([created(), disabled])
        .when(skipPolicy(false))
        .then([skipPolicyChanged(false)]);
      spec
        .given([created(), disabled, skipPolicyChanged(false)])
        .when(enable(true))
        .then([{ type: 'ScheduleEnabled', data: { scheduleId: 'sch1', at: AT } }]);
    });

    it('still records a run that was already under way', () => {
      spec.given([created(), disabled]).when(recordRun()).then([runRecorded()]);
    });
  });

  describe('a deleted schedule', () => {
    const deleted: ScheduleEvent = {
      type: 'ScheduleDeleted',
      data: { scheduleId: 'sch1', at: AT },
    };

    it('is gone for every command but create, which is refused too', () => {
      spec.given([created()]).when(remove()).then([deleted]);
      spec
        .given([created(), deleted])
        .when(remove())
        .thenThrows(ErrorCode.NotFound, /deleted/);
      spec.given([created(), deleted]).when(enable(true)).thenThrows(ErrorCode.NotFound);
      spec
        .given([created(), deleted])
        .when(skipPolicy(false))
        .thenThrows(ErrorCode.NotFound, /schedule sch1 was deleted/);
      spec.given([created(), deleted]).when(recordRun()).thenThrows(ErrorCode.NotFound);
      spec.given([created(), deleted]).when(create()).thenThrows(ErrorCode.AlreadyExists);
    });
  });
});
