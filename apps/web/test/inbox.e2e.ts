import type { Page } from 'playwright-core';
import { checkPage, openSession, treeItem } from './browser-kit';
import { sb, scriptedSession, sendScript, useScriptedSession } from './session-kit';

/** Records each `new Notification(title, { body })` the page makes, and still shows it. */
const WRAP_NOTIFICATION = `(() => {
  const Real = window.Notification;
  window.__shown = [];
  function Wrapped(title, options) {
    window.__shown.push({ title, body: options && options.body });
    return new Real(title, options);
  }
  Object.defineProperty(Wrapped, 'permission', { get: () => Real.permission });
  Wrapped.requestPermission = (...a) => Real.requestPermission(...a);
  window.Notification = Wrapped;
})();`;

const shown = (page: Page): Promise<{ title: string; body: string }[]> =>
  page.evaluate(
    () => (window as unknown as { __shown: { title: string; body: string }[] }).__shown,
  );

/**
 * The inbox: what needs you in session B reaches a browser watching session A (badge in the
 * tree, count in the header and the tab title, a browser Notification), and what was opened
 * stays read after a reload, since the control plane keeps the read state.
 */
describe('the inbox', () => {
  const watched = useScriptedSession('Watched A');

  it('shows a notify and an approval of another session, and keeps them read once opened', async () => {
    const { api } = watched;
    const busy = await scriptedSession(api, 'Busy B');
    await api.request('PATCH', `/api/sessions/${busy}/policy`, { agentTools: 'all' });
    const { page } = await watched.browser();
    await page.context().grantPermissions(['notifications'], { origin: api.url });
    await page.context().addInitScript(WRAP_NOTIFICATION);
    const inbox = page.getByRole('banner').getByRole('link', { name: /^Inbox/ });
    await watched.signedIn();
    await openSession(page, 'Watched A');
    await inbox.waitFor();
    expect(await inbox.textContent()).toBe('Inbox');
    expect(await page.title()).toBe('Sessionboxer');

    const text = 'Deploy failed: I need a decision';
    await sendScript(
      api,
      busy,
      sb('notify', { text }),
      sb('session_create', { title: 'Cleanup', provider: 'scripted', first_prompt: 'hi' }),
    );
    await page
      .getByRole('banner')
      .getByRole('link', { name: 'Inbox 2' })
      .waitFor({ timeout: 30_000 });
    expect(await page.title()).toBe('(2) Sessionboxer');
    await treeItem(page, 'Busy B').getByText('2 unread').waitFor();
    expect(
      await treeItem(page, 'Watched A')
        .getByText(/unread/)
        .count(),
    ).toBe(0);
    await page.waitForFunction(() => (window as any).__shown.length >= 2);
    expect((await shown(page)).map((n) => [n.title, n.body]).sort()).toEqual(
      [
        ['Busy B', text],
        ['Busy B', expect.stringContaining('Cleanup')],
      ].sort(),
    );

    await inbox.click();
    const items = page.getByRole('list', { name: 'Inbox items' }).getByRole('listitem');
    await items.nth(1).waitFor();
    expect(await items.count()).toBe(2);
    await checkPage(page, 'inbox-unread');

    // Opening the notification reads it and shows its session.
    await items.filter({ hasText: text }).getByRole('button').click();
    await page.waitForURL(`**/sessions/${busy}`);
    await page.getByRole('banner').getByRole('link', { name: 'Inbox', exact: true }).waitFor();
    expect(await page.title()).toBe('Sessionboxer');

    // Read on the server: a reload keeps it so.
    await page.reload();
    await page
      .getByRole('banner')
      .getByRole('link', { name: /^Inbox/ })
      .waitFor();
    await page.goto(`${api.url}/inbox`);
    await items.nth(1).waitFor();
    expect(await page.getByText('0 unread').count()).toBe(1);
    expect(await page.getByText(/· unread/).count()).toBe(0);
    expect(await page.title()).toBe('Sessionboxer');
    await checkPage(page, 'inbox-read');
    // The service worker that shows a Web Push is served and installs (no push service here).
    const sw = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.register('/push-sw.js');
      await navigator.serviceWorker.ready;
      return reg.active?.scriptURL ?? null;
    });
    expect(sw).toBe(`${api.url}/push-sw.js`);
    await page.getByRole('button', { name: 'Push to this device' }).waitFor();
    const listed = (await api.request('GET', '/api/inbox')).body;
    expect(listed.unreadCount).toBe(0);
    expect(listed.items.map((i: { kind: string }) => i.kind).sort()).toEqual([
      'approval',
      'notification',
    ]);
  }, 120_000);
});
