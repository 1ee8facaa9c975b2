import { e2ePlanTool } from './e2e_plan';
import { handleE2eCall } from './registry';
import { RecordingE2ePort, RUN } from './test/recording-e2e-port';

let port: RecordingE2ePort;
beforeEach(() => {
  port = new RecordingE2ePort();
});

const call = (tool: string, args: unknown = {}) => handleE2eCall(port, tool, args);

describe('each e2e tool calls its port method and answers the spec shape', () => {
  it('e2e_plan with cases → plan(titles), the run', async () => {
    await expect(call('e2e_plan', { cases: ['Log in', ' Log out '] })).resolves.toEqual(RUN);
    expect(port.calls).toEqual([{ method: 'plan', args: [['Log in', 'Log out']] }]);
  });

  it('e2e_plan with skip → skip(reason), the run skipped', async () => {
    const run = await call('e2e_plan', { skip: 'an answer-only turn' });
    expect(run).toMatchObject({ status: 'skipped', skipReason: 'an answer-only turn' });
    expect(port.calls).toEqual([{ method: 'skip', args: ['an answer-only turn'] }]);
  });

  it('e2e_case_start → startCase(index), the case', async () => {
    await expect(call('e2e_case_start', { index: 3 })).resolves.toMatchObject({
      index: 3,
      status: 'running',
    });
    expect(port.calls).toEqual([{ method: 'startCase', args: [3] }]);
  });

  it('e2e_case_end → endCase(index, { status, note, screenshot }), nulls for what was left out', async () => {
    await call('e2e_case_end', { index: 1, status: 'passed' });
    await call('e2e_case_end', {
      index: 2,
      status: 'failed',
      note: 'no redirect',
      screenshot: '/workspace/qa/2.png',
    });
    expect(port.calls).toEqual([
      { method: 'endCase', args: [1, { status: 'passed', note: null, screenshot: null }] },
      {
        method: 'endCase',
        args: [2, { status: 'failed', note: 'no redirect', screenshot: '/workspace/qa/2.png' }],
      },
    ]);
  });

  it('e2e_finish → finish({ video, summary }), the closed run', async () => {
    const run = await call('e2e_finish', { video: '/workspace/qa/run.mp4' });
    expect(run).toMatchObject({ status: 'passed', video: '/workspace/qa/run.mp4', summary: null });
    expect(port.calls).toEqual([
      { method: 'finish', args: [{ video: '/workspace/qa/run.mp4', summary: null }] },
    ]);
  });
});

describe('refusals before the port is touched', () => {
  it('a sessionboxer tool is no e2e tool', async () => {
    await expect(call('verify', { brief: 'x' })).rejects.toThrow(/no Auto QA tool "verify"/);
    expect(port.calls).toEqual([]);
  });

  it('handle itself refuses what only the cross-field check catches', async () => {
    await expect(e2ePlanTool.handle(port, {})).rejects.toThrow(/give either cases/);
    await expect(e2ePlanTool.handle(port, { cases: ['a'], skip: 'b' })).rejects.toThrow(
      /both given/,
    );
    expect(port.calls).toEqual([]);
  });
});
