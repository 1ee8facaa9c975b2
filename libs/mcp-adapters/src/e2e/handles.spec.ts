import { e2eDouble, RUN } from './test/recording-e2e-handlers';

let fake: ReturnType<typeof e2eDouble>;
beforeEach(() => {
  fake = e2eDouble();
});

const call = (tool: string, args: unknown = {}) => fake.call(tool, args);

describe('each e2e tool reaches its handler with its parsed arguments', () => {
  it('e2e_plan with cases: the trimmed titles, the run', async () => {
    await expect(call('e2e_plan', { cases: ['Log in', ' Log out '] })).resolves.toEqual(RUN);
    expect(fake.calls).toEqual([{ tool: 'e2e_plan', args: { cases: ['Log in', 'Log out'] } }]);
  });

  it('e2e_plan with skip: the reason, the run skipped', async () => {
    const run = await call('e2e_plan', { skip: 'an answer-only turn' });
    expect(run).toMatchObject({ status: 'skipped', skipReason: 'an answer-only turn' });
    expect(fake.calls).toEqual([{ tool: 'e2e_plan', args: { skip: 'an answer-only turn' } }]);
  });

  it('e2e_case_start: the index, the case', async () => {
    await expect(call('e2e_case_start', { index: 3 })).resolves.toMatchObject({
      index: 3,
      status: 'running',
    });
    expect(fake.calls).toEqual([{ tool: 'e2e_case_start', args: { index: 3 } }]);
  });

  it('e2e_case_end: index, status and what was given of note and screenshot', async () => {
    await call('e2e_case_end', { index: 1, status: 'passed' });
    const failed = {
      index: 2,
      status: 'failed',
      note: 'no redirect',
      screenshot: '/workspace/qa/2.png',
    };
    await call('e2e_case_end', failed);
    expect(fake.calls.map((c) => c.args)).toEqual([{ index: 1, status: 'passed' }, failed]);
  });

  it('e2e_finish: video and summary as given, the closed run', async () => {
    const run = await call('e2e_finish', { video: '/workspace/qa/run.mp4' });
    expect(run).toMatchObject({ status: 'passed', video: '/workspace/qa/run.mp4', summary: null });
    expect(fake.calls).toEqual([{ tool: 'e2e_finish', args: { video: '/workspace/qa/run.mp4' } }]);
  });
});

describe('refusals before any handler runs', () => {
  it('a sessionboxer tool is no e2e tool', async () => {
    await expect(call('verify', { brief: 'x' })).rejects.toThrow(/no Auto QA tool "verify"/);
    expect(fake.calls).toEqual([]);
  });

  it('e2e_plan takes cases or skip, exactly one', async () => {
    await expect(call('e2e_plan', {})).rejects.toThrow(/give either cases/);
    await expect(call('e2e_plan', { cases: ['a'], skip: 'b' })).rejects.toThrow(/both given/);
    expect(fake.calls).toEqual([]);
  });
});
