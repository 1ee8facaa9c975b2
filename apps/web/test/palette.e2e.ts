import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage, openSession } from './browser-kit';
import { callTool } from '../../control-plane/test/schedule-kit';
import { useControlPlane } from './session-kit';

const XSS = '<img src=x onerror="window.__xss = 1">';

/**
 * Ctrl+K opens the command palette (a modal dialog, Escape closes it) to jump to a session or a
 * page; "?" lists the shortcuts; "/" jumps to the prompt; none of them fires while typing.
 */
describe('the command palette and shortcuts', () => {
  const plane = useControlPlane();
  const palette = (page: import('playwright-core').Page) =>
    page.getByRole('dialog', { name: 'Command palette' });

  it('jumps to a session by title and to a page, and Escape closes it', async () => {
    const { api } = plane;
    await api.request('POST', '/api/sessions', { title: 'Alpha work' });
    await api.request('POST', '/api/sessions', { title: XSS });
    const page = await plane.signedIn();
    await page.keyboard.press('Control+k');
    await palette(page).waitFor();
    const field = page.getByRole('combobox', { name: 'Go to a session, a page or an action' });
    await waitFor('focus in the field', () => field.evaluate((f) => f === document.activeElement));
    await checkPage(page, 'palette-open');
    await field.fill('img');
    await palette(page)
      .getByRole('option', { name: /onerror/ })
      .waitFor();
    expect(await page.evaluate(() => (window as any).__xss)).toBe(undefined);
    await field.fill('alpha');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Alpha work' }).waitFor();
    expect(await palette(page).count()).toBe(0);

    await page.keyboard.press('Control+k');
    await field.fill('settings');
    await page.keyboard.press('Enter');
    await waitFor('on Settings', () => new URL(page.url()).pathname === '/settings');

    await page.keyboard.press('Control+k');
    await palette(page).waitFor();
    await page.keyboard.press('Escape');
    await palette(page).waitFor({ state: 'hidden' });
  });

  it('"/" jumps to the prompt and "?" lists the shortcuts, but not while typing', async () => {
    const page = await plane.signedIn();
    await openSession(page, 'Alpha work');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    const prompt = page.locator('#prompt');
    await waitFor('prompt focused', () => prompt.evaluate((p) => p === document.activeElement));
    await page.keyboard.type('a/b?');
    expect(await prompt.inputValue()).toBe('a/b?');
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0);
    await prompt.blur();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await checkPage(page, 'shortcuts-help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
  });

  it('Alt+N goes to the next session with something unread, and nowhere when none has', async () => {
    const { api } = plane;
    const create = async (title: string) =>
      (await api.request('POST', '/api/sessions', { title })).body.id as string;
    await create('Quiet one');
    const loud = await create('Needs you');
    const page = await plane.signedIn();
    await openSession(page, 'Alpha work');
    await callTool(api, loud, 'notify', { text: 'Look at the failing build' });
    const inbox = page.getByRole('banner').getByRole('link', { name: /^Inbox/ });
    await page.getByRole('banner').getByRole('link', { name: 'Inbox 1' }).waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Alt+n');
    await page.getByRole('heading', { level: 1, name: 'Needs you' }).waitFor();
    // Opening it read its item: nothing is left to go to.
    await waitFor('its item read', async () => (await inbox.textContent()) === 'Inbox');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Alt+n');
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByText('Alt+N').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/sessions/${loud}`);
  });
});
