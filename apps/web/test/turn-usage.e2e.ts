import { turnFinished } from '../../control-plane/test/agent/agent-kit';
import { checkPage, transcriptLog } from './browser-kit';
import { sendScript, useScriptedSession } from './session-kit';

/**
 * Token use and cost per turn and per session, and Retry of a failed turn (issue 15). The
 * scripted harness (the test double of a model-driven CLI) reports the cost its script names,
 * the way Claude Code reports total_cost_usd; it runs in a real box.
 */
describe("a turn's cost, the session's totals, and Retry", () => {
  const plane = useScriptedSession('Costly');

  it('shows each turn its cost, sums them for the session, and Retry sends the prompt again', async () => {
    const { api, id } = plane;
    const page = await plane.openView();
    await sendScript(api, id, { say: 'Trying.' }, { cost: 0.0125 }, { fail: 'the tests broke' });
    await turnFinished(api, id, 1, 30_000);
    const log = transcriptLog(page);
    await log.getByText('Turn 1 failed · 0 tokens in, 0 out · $0.0125').waitFor();
    const usage = page.getByLabel('Session usage');
    await usage.getByText('1 turn · 0 tokens in, 0 out · $0.0125').waitFor();
    await checkPage(page, 'turn-failed-retry');

    await log.getByRole('button', { name: 'Retry turn 1' }).click();
    await turnFinished(api, id, 2, 30_000);
    await log.getByText('Turn 2 failed · 0 tokens in, 0 out · $0.0125').waitFor();
    await usage.getByText('2 turns · 0 tokens in, 0 out · $0.0250').waitFor();
    const events = (await api.request('GET', `/api/sessions/${id}/conversation`)).body.events;
    const prompts = events.filter((e: any) => e.type === 'prompt').map((e: any) => e.text);
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toBe(prompts[0]);

    // A turn that finished offers no Retry, and one without a cost shows none.
    await sendScript(api, id, { say: 'Done.' });
    await turnFinished(api, id, 3, 30_000);
    await log.getByText('Turn 3 finished · 0 tokens in, 0 out', { exact: true }).waitFor();
    expect(await log.getByRole('button', { name: 'Retry turn 3' }).count()).toBe(0);
  });
});
