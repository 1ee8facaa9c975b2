import * as fs from 'node:fs';
import { runTool } from './call-kit';
import { conversation, script, transcript, turnFinished } from './agent/agent-kit';
import { qa, scriptedSession, sendScript, toolResults, verificationRuns } from './auto-qa-kit';
import { startApp, type RunningApp } from './harness';

/**
 * Auto QA end to end: a REAL box whose agent is the scripted harness calls `verify` and the
 * e2e tools through its sessionboxer MCP server (the e2e ones posted to the daemon's /e2e),
 * and the Auto QA setting opens a run after a person's turn.
 */
describe('Auto QA runs in a real box', () => {
  let api: RunningApp;

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  const session = (title: string) => scriptedSession(api, title);
  const prompt = (id: string, ...steps: object[]) => sendScript(api, id, ...steps);
  const results = (id: string, turn: number) => toolResults(api, id, turn);
  const runs = (id: string) => verificationRuns(api, id);

  it('without an open run the e2e tools refuse, saying so; whoami says null', async () => {
    const id = await session('No run yet');
    await prompt(
      id,
      qa('e2e_plan', { cases: ['Log in'] }),
      qa('e2e_case_start', { index: 1 }),
      qa('e2e_finish', { video: '/workspace/qa/run.mp4' }),
      qa('whoami'),
    );
    await turnFinished(api, id, 1);
    const [plan, start, finish, me] = await results(id, 1);
    for (const refused of [plan, start, finish]) {
      expect(refused.error).toBe(true);
      expect(refused.value).toMatch(
        /^this session has no open verification run: open one with verify.* \(INVALID_STATE\)$/,
      );
    }
    expect(me.value.verification).toBeNull();
    expect(await runs(id)).toEqual([]);
    expect((await api.request('GET', '/api/sessions/nope/verifications')).status).toBe(404);
  });

  it('verify, then cases numbered from 1, a failed case started again, the verdict and video', async () => {
    const id = await session('Login form');
    const brief = 'Check the login form after the retry change';
    await prompt(
      id,
      qa('verify', { brief }),
      qa('whoami'),
      qa('e2e_plan', {
        cases: ['Log in with a good password', 'A wrong password is refused', 'Log out'],
      }),
      qa('e2e_case_start', { index: 1 }),
      qa('e2e_case_end', {
        index: 1,
        status: 'failed',
        note: 'nothing happens',
        screenshot: '/workspace/qa/1.png',
      }),
      qa('e2e_case_start', { index: 1 }),
      qa('e2e_case_end', { index: 1, status: 'passed' }),
      qa('e2e_case_start', { index: 2 }),
      qa('e2e_case_end', { index: 2, status: 'passed', note: 'an error shows' }),
      qa('verify', { brief: 'A second run while this one is open' }),
      qa('e2e_finish', { video: '/workspace/qa/run.mp4', summary: 'Login works' }),
      qa('whoami'),
      qa('e2e_case_start', { index: 3 }),
    );
    await turnFinished(api, id, 1);
    const r = await results(id, 1);
    expect(r.map((x) => [x.name, x.error])).toEqual([
      ['verify', false],
      ['whoami', false],
      ['e2e_plan', false],
      ['e2e_case_start', false],
      ['e2e_case_end', false],
      ['e2e_case_start', false],
      ['e2e_case_end', false],
      ['e2e_case_start', false],
      ['e2e_case_end', false],
      ['verify', true],
      ['e2e_finish', false],
      ['whoami', false],
      ['e2e_case_start', true],
    ]);
    const runId = r[0].value.id;
    expect(r[0].value).toEqual({ id: runId, status: 'open', cases: [] });
    expect(r[1].value.verification).toEqual({ id: runId, status: 'open', brief });
    expect(r[2].value.cases.map((c: any) => [c.index, c.status])).toEqual([
      [1, 'pending'],
      [2, 'pending'],
      [3, 'pending'],
    ]);
    expect(r[5].value).toMatchObject({ index: 1, status: 'running' });
    expect(r[5].value.attempts.map((a: any) => a.status)).toEqual(['failed', 'running']);
    expect(r[9].value).toMatch(
      /verification run .* is still open: a session has one open run at a time/,
    );
    const closed = r[10].value;
    expect(closed).toMatchObject({
      id: runId,
      status: 'passed',
      verdict: 'passed',
      video: '/workspace/qa/run.mp4',
      summary: 'Login works',
    });
    expect(closed.cases.map((c: any) => [c.index, c.status, c.attempts.length])).toEqual([
      [1, 'passed', 2],
      [2, 'passed', 1],
      [3, 'skipped', 0],
    ]);
    expect(closed.cases[0].attempts[0]).toMatchObject({
      attempt: 1,
      status: 'failed',
      note: 'nothing happens',
      screenshot: '/workspace/qa/1.png',
    });
    expect(r[11].value.verification).toEqual({ id: runId, status: 'passed', brief });
    expect(r[12].value).toMatch(/no open verification run \(its last run, .*, is closed: passed\)/);

    const [listed] = await runs(id);
    expect(listed).toMatchObject({
      ...closed,
      sessionId: id,
      openedBy: { kind: 'agent', sessionId: id },
    });
    const markers = (await transcript(api, id)).flatMap((e) => (e.marker ? [e.marker.text] : []));
    expect(markers).toContain(`opened verification run “${brief}”`);
    expect(markers).toContain('finished the verification run: passed (2 passed, 1 skipped)');
  });

  it('fails a run whose case failed last, takes cases in verify, and skips a run', async () => {
    const id = await session('Verdicts');
    await prompt(
      id,
      qa('verify', { brief: 'Checkout', cases: ['Pay by card', 'Pay by invoice'] }),
      qa('e2e_plan', { cases: ['Again'] }),
      qa('e2e_case_start', { index: 1 }),
      qa('e2e_case_end', { index: 1, status: 'failed' }),
      qa('e2e_finish'),
      qa('verify', { brief: 'Answer a question' }),
      qa('e2e_plan', { skip: 'an answer-only turn: nothing to test' }),
    );
    await turnFinished(api, id, 1);
    const r = await results(id, 1);
    expect(r[0].value).toMatchObject({
      status: 'running',
      cases: [
        { index: 1, title: 'Pay by card', status: 'pending' },
        { index: 2, title: 'Pay by invoice', status: 'pending' },
      ],
    });
    expect(r[1].value).toMatch(/already planned: e2e_plan is called once per run/);
    expect(r[4].value).toMatchObject({ status: 'failed', verdict: 'failed', video: null });
    expect(r[4].value.cases.map((c: any) => c.status)).toEqual(['failed', 'skipped']);
    expect(r[6].value).toMatchObject({
      status: 'skipped',
      skipReason: 'an answer-only turn: nothing to test',
    });
    expect((await runs(id)).map((run) => run.status)).toEqual(['failed', 'skipped']);
  });

  it('with autoQa.afterEachTurn, a person’s turn opens a run and asks the agent to verify it; the agent’s own turns do not', async () => {
    const patched = await api.request('PATCH', '/api/settings', {
      autoQa: { afterEachTurn: true },
    });
    expect(patched.body.settings.autoQa).toEqual({ afterEachTurn: true });
    const id = await session('Auto QA on');
    // The person's turn queues a follow-up of the agent's own that skips the run Auto QA opened.
    // That turn starts as the person's ends, while Auto QA opens the run: it waits a second.
    const own = script({ sleep: 1 }, qa('whoami'), qa('e2e_plan', { skip: 'nothing testable' }));
    await prompt(id, { say: 'Changed the login page.' }, qa('queue_add', { text: own }));
    await turnFinished(api, id, 3, 60_000);
    // Nothing more opens or runs once the queue is empty.
    await new Promise((r) => setTimeout(r, 1500));
    try {
      const { events, conversation: header } = await conversation(api, id);
      const prompts = events.filter((e: any) => e.type === 'prompt');
      expect(prompts.map((p: any) => p.from)).toEqual([
        { kind: 'person', id: api.credentials.username },
        { kind: 'agent', sessionId: id },
        { kind: 'system', id: 'auto-qa' },
      ]);
      expect(header).toMatchObject({ turns: 3, queued: 0, currentTurn: null });
      const [run, ...none] = await runs(id);
      expect(none).toEqual([]);
      expect(run).toMatchObject({
        status: 'skipped',
        skipReason: 'nothing testable',
        openedBy: { kind: 'system', id: 'auto-qa' },
      });
      expect(run.brief).toMatch(/^Verify end to end what turn 1 changed, as the person asked: “\{/);
      expect(prompts[2].text).toContain(`verification run ${run.id}`);
      expect(prompts[2].text).toMatch(/Follow the e2e-verification skill: call e2e_plan/);
      const [me] = await results(id, 2);
      expect(me.value.verification).toEqual({ id: run.id, status: 'open', brief: run.brief });
      const markers = (await transcript(api, id)).flatMap((e) => (e.marker ? [e.marker] : []));
      expect(markers.find((m) => m.kind === 'verification-opened')?.text).toMatch(
        /^opened verification run “Verify end to end what turn 1 changed/,
      );
    } finally {
      await api.request('PATCH', '/api/settings', { autoQa: { afterEachTurn: false } });
    }
  });

  it('applies a call resent with its callId once, even after it closed the run', async () => {
    // As after a control-plane restart between applying a call and answering it: the gateway's
    // memory of answers is gone, so the same call reaches its handler again.
    const id = await session('Resent calls');
    const call = (callId: string, tool: string, args: object) =>
      runTool(api, id, callId, tool, args);
    const verify = () => call('call-verify-1', 'verify', { brief: 'Resent calls', cases: ['One'] });
    const opened = await verify();
    expect(await verify()).toEqual(opened);
    const start = await call('call-start-1', 'e2e_case_start', { index: 1 });
    expect(await call('call-start-1', 'e2e_case_start', { index: 1 })).toEqual(start);
    await call('call-end-1', 'e2e_case_end', { index: 1, status: 'passed' });
    const finish = await call('call-finish-1', 'e2e_finish', {});
    expect(await call('call-finish-1', 'e2e_finish', {})).toEqual(finish);
    await expect(call('call-finish-2', 'e2e_finish', {})).rejects.toThrow(
      /no open verification run \(its last run, .*, is closed: passed\)/,
    );
    const [run] = await runs(id);
    expect(run.cases[0].attempts).toHaveLength(1);
    expect(run).toMatchObject({ id: opened.id, status: 'passed' });
  });

  it('does nothing after a turn when the setting is off (the default)', async () => {
    const id = await session('Auto QA off');
    await prompt(id, { say: 'Done.' });
    await turnFinished(api, id, 1);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await runs(id)).toEqual([]);
    expect((await conversation(api, id)).conversation.turns).toBe(1);
  });
});
