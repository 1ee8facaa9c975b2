import { ErrorCode } from '@sessionboxer/domain';
import { isToolCallError, type ToolCallError } from '../kit/call-error';
import { parseCall } from './registry';
import { toolScope } from './policy';
import { NEXT_RUN, sessionboxerDouble, SCHEDULE } from './test/recording-handlers';

let fake: ReturnType<typeof sessionboxerDouble>;
beforeEach(() => {
  fake = sessionboxerDouble();
});

const call = (tool: string, args: unknown = {}) => fake.call(tool, args);

function refusal(args: unknown): ToolCallError {
  try {
    parseCall('schedule_create', args);
  } catch (e) {
    if (isToolCallError(e)) return e;
    throw e;
  }
  throw new Error(`schedule_create accepted ${JSON.stringify(args)}`);
}

describe('schedule_create', () => {
  it('fills in timezone UTC and, for new_session, repos [] and stopAfter true', async () => {
    const action = { type: 'new_session', prompt: '  Triage the new issues  ' };
    await expect(call('schedule_create', { cron: '0 9 * * 1-5', action })).resolves.toEqual({
      id: 'sch-1',
      name: 'Scheduled task',
      cron: '0 9 * * 1-5',
      timezone: 'UTC',
      nextRunAt: NEXT_RUN,
    });
    expect(fake.calls).toEqual([
      {
        tool: 'schedule_create',
        args: {
          cron: '0 9 * * 1-5',
          timezone: 'UTC',
          action: {
            type: 'new_session',
            prompt: 'Triage the new issues',
            repos: [],
            stopAfter: true,
          },
        },
      },
    ]);
  });

  it('passes a prompt action without a sessionId on (it means the caller)', async () => {
    const args = {
      cron: '*/2 * * * * *',
      timezone: 'Europe/Paris',
      name: 'Ping',
      action: { type: 'prompt', text: 'Status?' },
    };
    await call('schedule_create', args);
    expect(fake.calls).toEqual([{ tool: 'schedule_create', args }]);
  });

  it.each([
    ['no cron', { action: { type: 'prompt', text: 'x' } }, 'cron', /cron is required/],
    [
      'an unknown action type',
      { cron: '* * * * *', action: { type: 'email' } },
      'action.type',
      /action.type must be prompt or new_session/,
    ],
    [
      'text over 20,000',
      { cron: '* * * * *', action: { type: 'prompt', text: 'x'.repeat(20_001) } },
      'action.text',
      /at most 20000/,
    ],
    [
      'an empty prompt',
      { cron: '* * * * *', action: { type: 'new_session', prompt: ' ' } },
      'action.prompt',
      /must not be empty/,
    ],
    [
      'a stray field',
      { cron: '* * * * *', action: { type: 'prompt', text: 'x', when: 'now' } },
      'action.when',
      /action\.when is not a field of action \(it takes type, sessionId, text\)/,
    ],
    [
      'a two-line name',
      { cron: '* * * * *', name: 'a\nb', action: { type: 'prompt', text: 'x' } },
      'name',
      /one line/,
    ],
  ])('refuses %s, naming the field', (_what, args, field, why) => {
    const e = refusal(args);
    expect(e.code).toBe(ErrorCode.ValidationFailed);
    expect(e.issues.map((i) => i.field)).toContain(field);
    expect(e.message).toMatch(why);
  });

  it('needs at least This Session only (another session is checked when it runs)', () => {
    expect(toolScope('schedule_create')).toBe('session');
  });
});

describe('schedule_list', () => {
  it('takes no parameters and answers every schedule', async () => {
    await expect(call('schedule_list')).resolves.toEqual([SCHEDULE]);
    expect(fake.calls).toEqual([{ tool: 'schedule_list', args: {} }]);
    expect(() => parseCall('schedule_list', { all: true })).toThrow(/all is not a parameter/);
  });
});
