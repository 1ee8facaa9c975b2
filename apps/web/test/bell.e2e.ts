import { turnFinished } from '../../control-plane/test/agent/agent-kit';
import { checkPage, stillSamePage, transcriptLog } from './browser-kit';
import { browserOn, resultOf, sb, sendScript, useScriptedSession } from './session-kit';

/** The bell: the agent's `notify` (the scripted harness, in a real box) reaches it live. */
describe('the bell', () => {
  const session = useScriptedSession('Bell ringer');

  it('counts the agent’s notifications as they come, and lists them when opened', async () => {
    const { api, id } = session;
    const page = await session.openView();
    await browserOn(api, id, false);
    const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
    expect(await bell.textContent()).toBe('Notifications');
    const list = page.getByRole('list', { name: 'Notifications' });
    expect(await list.count()).toBe(0);

    const first = 'The build is broken: I need your GitHub token';
    await sendScript(api, id, sb('notify', { text: first }), { say: 'Told you.' });
    await page
      .getByRole('button', { name: 'Notifications 1', exact: true })
      .waitFor({ timeout: 30_000 });
    expect(await resultOf(api, id, 1, 'notify')).toEqual({ ok: true });
    await transcriptLog(page).getByText(`notified you: ${first}`, { exact: false }).waitFor();
    await checkPage(page, 'bell-unread');

    await bell.click();
    await list.getByRole('listitem').filter({ hasText: first }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);
    await list.getByText('From the agent').waitFor();
    // Seen once listed: the count goes.
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await checkPage(page, 'bell-open');
    await bell.click();
    await list.waitFor({ state: 'detached' });
    await turnFinished(api, id, 1);

    // A second one counts 1 again (only the unseen), and the list has both, newest first.
    const second = 'Tests pass now: ready for review';
    await sendScript(api, id, sb('notify', { text: second }));
    await page
      .getByRole('button', { name: 'Notifications 1', exact: true })
      .waitFor({ timeout: 30_000 });
    await bell.click();
    await list.getByRole('listitem').nth(1).waitFor();
    expect(await list.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining(second),
      expect.stringContaining(first),
    ]);
    expect(await stillSamePage(page)).toBe(true);

    // What the bell shows is what the control plane holds.
    const page1 = (await api.request('GET', `/api/sessions/${id}/notifications`)).body;
    const texts = (page1.notifications ?? page1).map((n: any) => [n.text, n.source]);
    expect(texts).toEqual([
      [first, 'agent'],
      [second, 'agent'],
    ]);
    await turnFinished(api, id, 2);
  }, 90_000);
});
