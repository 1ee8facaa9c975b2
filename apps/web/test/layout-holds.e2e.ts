import type { Locator } from 'playwright-core';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage, sidebar, startsWith, transcriptLog, treeItem } from './browser-kit';
import { paneTab, useControlPlane } from './session-kit';

/** Whether two boxes overlap (by more than a rounding pixel). */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [p, q] = [await a.boundingBox(), await b.boundingBox()];
  if (!p || !q) throw new Error('a box to compare is not shown');
  const x = Math.min(p.x + p.width, q.x + q.width) - Math.max(p.x, q.x);
  const y = Math.min(p.y + p.height, q.y + q.height) - Math.max(p.y, q.y);
  return x > 1 && y > 1;
}

/** Whether the element at the centre of `button` is the button (nothing is drawn over it). */
async function onTop(button: Locator): Promise<boolean> {
  await button.scrollIntoViewIfNeeded();
  return button.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && el.contains(hit);
  });
}

/** How far an element's content reaches past its width (0: no sideways scroll). */
const sideways = (scope: Locator): Promise<number> =>
  scope.evaluate((el) => el.scrollWidth - el.clientWidth);

/**
 * The "Broken" items a person meets without an agent running: the layout at 800 px,
 * Global cap's validation, a false empty transcript on a slow network, long titles, the
 * environments Settings offers, and the status chip of an idle session.
 */
describe('the web UI holds', () => {
  const plane = useControlPlane({ browserPerTest: true });
  const create = async (title: string): Promise<string> => {
    const created = await plane.api.request('POST', '/api/sessions', { title });
    if (created.status !== 201) throw new Error(`creating ${title}: ${created.status}`);
    return created.body.id as string;
  };

  it('at 800 px wide no pane is drawn over the prompt and Send', async () => {
    await create('Narrow window');
    const page = await plane.signedIn();
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByRole('button', { name: 'New session' }).waitFor();
    const open = await plane.openView('Narrow window');
    const prompt = open.getByLabel('Prompt');
    const send = open.getByRole('button', { name: 'Send', exact: true });
    const panes = open.getByRole('region', { name: 'Session panes' });
    for (const tab of ['Auto QA', 'Terminals', 'Recordings']) {
      await paneTab(open, tab).click();
      await open.getByRole('tabpanel').waitFor();
      expect(`${tab}: ${String(await overlap(panes, send))}`).toBe(`${tab}: false`);
      expect(`${tab}: ${String(await overlap(panes, prompt))}`).toBe(`${tab}: false`);
      expect(`${tab}: ${String(await onTop(send))}`).toBe(`${tab}: true`);
    }
    await send.click({ trial: true, timeout: 3000 });
    await prompt.click({ timeout: 3000 });
    await checkPage(open, 'layout-800px-panes');
  });

  it.each([360, 2560])(
    'at %i px wide nothing is wider than the window and Send is reachable',
    async (width) => {
      await create(`Window ${width}`);
      const page = await plane.signedIn();
      await page.setViewportSize({ width, height: 800 });
      const open = await plane.openView(`Window ${width}`);
      const overflow = await open.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(`${width} px: ${overflow} px sideways`).toBe(`${width} px: 0 px sideways`);
      const send = open.getByRole('button', { name: 'Send', exact: true });
      expect(await onTop(send)).toBe(true);
      expect(await overlap(sidebar(open), send)).toBe(false);
      await open.getByLabel('Prompt').click({ timeout: 3000 });
      await checkPage(open, `layout-${width}px`);
    },
  );

  it('the handle between the conversation and the panes resizes them, by key and by drag, and keeps it', async () => {
    await create('Split view');
    const page = await plane.openView('Split view');
    const handle = page.getByRole('separator', { name: 'Resize the conversation and the panes' });
    const conversation = page.getByRole('region', { name: 'Conversation' });
    const width = async () => (await conversation.boundingBox())?.width ?? 0;
    expect(await handle.getAttribute('aria-valuenow')).toBe('60');
    const before = await width();
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await handle.getAttribute('aria-valuenow')).toBe('70');
    expect(await width()).toBeGreaterThan(before + 50);
    await page.keyboard.press('End');
    expect(await handle.getAttribute('aria-valuenow')).toBe('80');

    const body = await page.locator('.session-body').boundingBox();
    const box = await handle.boundingBox();
    if (!body || !box) throw new Error('the session view is not shown');
    await page.mouse.move(box.x + box.width / 2, box.y + 20);
    await page.mouse.down();
    await page.mouse.move(body.x + body.width * 0.4, box.y + 20, { steps: 4 });
    await page.mouse.up();
    expect(await handle.getAttribute('aria-valuenow')).toBe('40');
    await page.reload();
    await page.getByRole('separator', { name: 'Resize the conversation and the panes' }).waitFor();
    expect(await handle.getAttribute('aria-valuenow')).toBe('40');
    await checkPage(page, 'split-40');
  });

  it('clearing Global cap or typing a wrong one saves nothing and says the rule', async () => {
    const { api } = plane;
    const page = await plane.signedIn();
    await page.getByRole('link', { name: 'Settings' }).click();
    const mcp = page.getByRole('region', { name: 'MCP & connectors' });
    const cap = mcp.getByLabel('Global cap', { exact: true });
    const save = mcp.getByRole('button', { name: 'Save MCP & connectors' });
    const status = mcp.getByRole('status');
    const capNow = async () =>
      (await api.request('GET', '/api/settings')).body.settings.sessionboxer.globalCap;
    await cap.waitFor();
    expect(await cap.inputValue()).toBe('10');

    await cap.fill('');
    await save.click();
    await mcp
      .getByRole('alert')
      .filter({ hasText: /whole number from 0 to 1000/ })
      .waitFor();
    expect(await cap.getAttribute('aria-invalid')).toBe('true');
    expect(await capNow()).toBe(10);
    expect(await status.textContent()).toBe('');

    await cap.fill('7');
    await save.click();
    await status.filter({ hasText: 'Saved' }).waitFor();
    expect(await capNow()).toBe(7);
    expect(await mcp.getByRole('alert').count()).toBe(0);

    // An invalid value after a save: the old "Saved" goes, and nothing is sent.
    await cap.fill('2.5');
    expect(await status.textContent()).toBe('');
    await save.click();
    await mcp
      .getByRole('alert')
      .filter({ hasText: /2\.5 is not/ })
      .waitFor();
    await cap.fill('1001');
    await save.click();
    await mcp
      .getByRole('alert')
      .filter({ hasText: /1001 is not/ })
      .waitFor();
    expect(await status.textContent()).toBe('');
    expect(await capNow()).toBe(7);
    await checkPage(page, 'settings-global-cap-invalid');
  });

  it('Settings offers only the environments the server accepts, and says why', async () => {
    const page = await plane.signedIn();
    await page.getByRole('link', { name: 'Settings' }).click();
    const select = page.getByLabel('Default environment');
    await select.waitFor();
    const offered = await select.locator('option').allTextContents();
    expect(offered).toEqual(['Docker · Linux']);
    const help = page.locator(`#${await select.getAttribute('aria-describedby')}`);
    expect(await help.textContent()).toMatch(
      /QEMU · Windows and QEMU · macOS are not available on this control plane/,
    );
  });

  it('on a slow network a session with history says it is loading, never "Nothing here yet"', async () => {
    const { api } = plane;
    const id = await create('Slow history');
    const sent = await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: 'remember this prompt',
    });
    expect(sent.status).toBe(202);
    const page = await plane.signedIn();
    await treeItem(page, 'Slow history').waitFor();
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/sessions/${id}/transcript**`, async (route) => {
      await released;
      await route.continue();
    });
    await treeItem(page, 'Slow history').getByText('Slow history', { exact: true }).click();
    const log = transcriptLog(page);
    await log.getByRole('status').filter({ hasText: 'Loading the transcript' }).waitFor();
    expect(await log.getAttribute('aria-busy')).toBe('true');
    expect(await page.getByText('Nothing here yet').count()).toBe(0);
    release();
    await log.getByText('remember this prompt').waitFor();
    expect(await log.getAttribute('aria-busy')).toBe('false');
    await page.unroute(`**/api/sessions/${id}/transcript**`);
  });

  it('a 200-character unbroken title wraps instead of scrolling the sidebar sideways', async () => {
    const title = 'W'.repeat(200);
    await create(title);
    const page = await plane.signedIn();
    await treeItem(page, title).waitFor();
    expect(await sideways(sidebar(page))).toBeLessThanOrEqual(0);
    await treeItem(page, title).getByText(title, { exact: true }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await sideways(page.locator('main'))).toBeLessThanOrEqual(0);
    expect(await sideways(sidebar(page))).toBeLessThanOrEqual(0);
    await checkPage(page, 'long-title');
  });

  it('the status chip says idle for a running session with no turn running', async () => {
    await create('Idle chip');
    const page = await plane.openView('Idle chip');
    const chip = (scope: Locator) => scope.locator('.status').first();
    const facts = page.locator('.session-facts');
    await waitFor('the chip to say idle', async () => (await chip(facts).textContent()) === 'idle');
    expect(await chip(treeItem(page, 'Idle chip')).textContent()).toBe('idle');
    const named = page.getByRole('treeitem', { name: startsWith('Idle chip idle') });
    expect(await named.count()).toBe(1);
  });
});
