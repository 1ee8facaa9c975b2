import * as fs from 'node:fs';
import * as path from 'node:path';
import { turnFinished } from '../../control-plane/test/agent/agent-kit';
import { checkPage, stillSamePage, transcriptLog } from './browser-kit';
import {
  paneTab,
  sb,
  sendScript,
  toolResults,
  useScriptedSession,
  workspaceOf,
} from './session-kit';

const BRIEF = 'Check the sign-up form after the validation change';
const CASES = ['Sign up with a good e-mail', 'A bad e-mail is refused'];

/**
 * The Auto QA pane follows a verification run as the agent (the scripted harness, in a real
 * box) drives it through its sessionboxer tools: verify, e2e_plan, each case started and
 * ended (the e2e tools go through the box's /e2e endpoint), a real recording of the box's
 * desktop as its video, e2e_finish. The run is split over turns so the test sees each state.
 */
describe('the Auto QA pane, live', () => {
  const session = useScriptedSession('Sign-up form', {
    setup: (api) => api.request('PATCH', '/api/settings', { desktop: { narration: 'never' } }),
  });

  /** A turn's tool results, every one of them a success. */
  const succeeded = async (turn: number) => {
    const { api, id } = session;
    await turnFinished(api, id, turn, 60_000);
    const results = await toolResults(api, id, turn);
    expect(results.filter((r) => r.error)).toEqual([]);
    return results;
  };
  const run = async () => {
    const runs = (await session.api.request('GET', `/api/sessions/${session.id}/verifications`))
      .body;
    expect(runs).toHaveLength(1);
    return runs[0];
  };

  it('shows the brief, each case’s status and note as it runs, its screenshot, the verdict and video', async () => {
    const { api, id } = session;
    const page = await session.openView();
    await paneTab(page, 'Auto QA').click();
    const pane = page.getByRole('tabpanel');
    await pane.getByText('No Auto QA runs yet.').waitFor();

    // Turn 1: the run opens, the cases are planned, the recording starts, case 1 starts.
    await sendScript(
      api,
      id,
      sb('verify', { brief: BRIEF }),
      sb('e2e_plan', { cases: CASES }),
      { call: 'desktop.start_recording' },
      sb('e2e_case_start', { index: 1 }),
    );
    const card = pane.getByRole('article', { name: `Auto QA run: ${BRIEF}` });
    await card.getByRole('heading', { name: BRIEF }).waitFor({ timeout: 30_000 });
    const cases = card.getByRole('list', { name: 'Cases' }).getByRole('listitem');
    const first = cases.filter({ hasText: CASES[0] });
    const second = cases.filter({ hasText: CASES[1] });
    await first.getByText('running', { exact: true }).waitFor({ timeout: 30_000 });
    await second.getByText('pending', { exact: true }).waitFor();
    const [, , started] = await succeeded(1);
    const video = started.value.path as string;
    expect(video).toMatch(/^\/workspace\/recordings\/.+\.mp4$/);
    expect((await run()).cases.map((c: any) => c.status)).toEqual(['running', 'pending']);
    await transcriptLog(page).getByText(`opened verification run “${BRIEF}”`).waitFor();
    await checkPage(page, 'auto-qa-case-running');

    // The agent saved a screenshot of the case under /workspace (the test writes a real PNG:
    // desktop.screenshot answers with the image, it saves no file).
    const shotPath = '/workspace/qa/1.png';
    const shotFile = path.join(workspaceOf(api, id), 'qa/1.png');
    fs.mkdirSync(path.dirname(shotFile), { recursive: true });
    fs.writeFileSync(shotFile, await page.screenshot());

    // Turn 2: case 1 passes with its note and screenshot; case 2 starts.
    await sendScript(
      api,
      id,
      sb('e2e_case_end', {
        index: 1,
        status: 'passed',
        note: 'The account is created and the welcome page shows',
        screenshot: shotPath,
      }),
      sb('e2e_case_start', { index: 2 }),
    );
    await first.getByText('passed', { exact: true }).waitFor({ timeout: 30_000 });
    await first.getByText('The account is created and the welcome page shows').waitFor();
    await second.getByText('running', { exact: true }).waitFor();
    const image = first.getByRole('img', { name: `Screenshot of case 1: ${CASES[0]}` });
    await image.scrollIntoViewIfNeeded();
    const handle = await image.elementHandle();
    await page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
      handle,
      { timeout: 15_000 },
    );
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
    expect(await image.getAttribute('src')).toContain(`/api/sessions/${id}/files?path=`);
    await succeeded(2);
    expect((await run()).cases.map((c: any) => c.status)).toEqual(['passed', 'running']);
    await checkPage(page, 'auto-qa-case-passed');

    // Turn 3: case 2 fails (the note says why), the recording stops, the run finishes.
    await sendScript(
      api,
      id,
      sb('e2e_case_end', { index: 2, status: 'failed', note: 'No error shows for "a@"' }),
      { call: 'desktop.stop_recording' },
      sb('e2e_finish', { video, summary: 'Sign-up works; a bad e-mail is not refused yet' }),
    );
    await card
      .getByText('Sign-up works; a bad e-mail is not refused yet')
      .waitFor({ timeout: 60_000 });
    await second.getByText('failed', { exact: true }).waitFor();
    await second.getByText('No error shows for "a@"').waitFor();
    expect(await first.getByText('passed', { exact: true }).count()).toBe(1);
    const [, , finished] = await succeeded(3);
    expect(finished.value).toMatchObject({ status: 'failed', verdict: 'failed', video });
    // The verdict is the run's badge.
    const verdictBadge = card
      .locator('p')
      .filter({ hasText: /opened / })
      .locator('.badge');
    expect(await verdictBadge.textContent()).toBe('failed');
    const closed = await run();
    expect(closed).toMatchObject({ status: 'failed', verdict: 'failed', video });
    expect(closed.cases[0].attempts[0]).toMatchObject({ status: 'passed', screenshot: shotPath });

    // The run's video, the box's real recording, loads from the files route.
    const player = card.locator('video');
    expect(await player.getAttribute('aria-label')).toBe(`Video of ${BRIEF}`);
    const videoHandle = await player.elementHandle();
    await page.waitForFunction(
      (v) => v instanceof HTMLVideoElement && v.readyState >= 1 && v.duration > 0,
      videoHandle,
      { timeout: 15_000 },
    );
    expect(await player.evaluate((v: HTMLVideoElement) => v.error)).toBeNull();
    expect(await stillSamePage(page)).toBe(true);
    await checkPage(page, 'auto-qa-finished');
  }, 150_000);
});
