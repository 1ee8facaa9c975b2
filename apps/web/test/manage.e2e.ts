import type { Page } from 'playwright-core';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage, openSession, sidebar, treeItem } from './browser-kit';
import { useControlPlane } from './session-kit';

const XSS = '<img src=x onerror="window.__xss = 1">';

/** The dialog asking `question`, once it shows. */
async function confirmIn(page: Page, question: string, action: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: question });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: action }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * Rename in place (the server's rule checked before sending), Archive with the sidebar's
 * "Show archived", and Delete after a confirmation, refused with the reason while it runs.
 */
describe('managing a session from its header', () => {
  const plane = useControlPlane();

  it('renames in place, refusing an empty title before anything is sent', async () => {
    const { api } = plane;
    await api.request('POST', '/api/sessions', { title: 'Draft name' });
    const page = await plane.signedIn();
    await openSession(page, 'Draft name');
    await page.getByRole('button', { name: 'Rename' }).click();
    const field = page.getByLabel('Session title');
    await field.fill('   ');
    let patched = 0;
    page.on('request', (r) => void (r.method() === 'PATCH' && patched++));
    await page.getByRole('button', { name: 'Save title' }).click();
    await page.getByRole('alert').getByText('title must not be empty').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(patched).toBe(0);
    await checkPage(page, 'rename-invalid');
    await field.fill('Final name');
    await page.getByRole('button', { name: 'Save title' }).click();
    await page.getByRole('heading', { level: 1, name: 'Final name' }).waitFor();
    await treeItem(page, 'Final name').waitFor();
    expect(patched).toBe(1);
  });

  it('archives out of the sidebar, shows it with Show archived, and unarchives', async () => {
    const { api } = plane;
    await api.request('POST', '/api/sessions', { title: 'Old work' });
    const page = await plane.signedIn();
    await openSession(page, 'Old work');
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Unarchive' }).waitFor();
    await waitFor(
      'gone from the tree',
      async () => (await treeItem(page, 'Old work').count()) === 0,
    );
    await sidebar(page).getByLabel('Show archived').check();
    await treeItem(page, 'Old work').waitFor();
    await checkPage(page, 'sidebar-show-archived');
    await page.getByRole('button', { name: 'Unarchive' }).click();
    await page.getByRole('button', { name: 'Archive' }).waitFor();
    await sidebar(page).getByLabel('Show archived').uncheck();
    await treeItem(page, 'Old work').waitFor();
  });

  it('deletes only after asking, and says why a running session is refused', async () => {
    const { api } = plane;
    const id = (await api.request('POST', '/api/sessions', { title: 'To delete' })).body.id;
    const page = await plane.signedIn();
    await openSession(page, 'To delete');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this session?' }).waitFor();
    await checkPage(page, 'delete-confirm');
    await confirmIn(page, 'Delete this session?', 'Delete session');
    await page.getByText(/is running: stop it before deleting it/).waitFor();
    await page.getByRole('button', { name: 'Stop session' }).click();
    await confirmIn(page, 'Stop this session?', 'Stop session');
    await page.getByRole('button', { name: 'Resume session' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await confirmIn(page, 'Delete this session?', 'Delete session');
    await waitFor(
      'gone from the tree',
      async () => (await treeItem(page, 'To delete').count()) === 0,
    );
    expect(new URL(page.url()).pathname).toBe('/');
    expect((await api.request('GET', `/api/sessions/${id}`)).status).toBe(404);
  });

  it('keeps a title holding markup inert', async () => {
    const { api } = plane;
    await api.request('POST', '/api/sessions', { title: XSS });
    const page = await plane.signedIn();
    await treeItem(page, XSS).waitFor();
    await openSession(page, XSS);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBe(
      undefined,
    );
    expect(await page.locator('img[src="x"]').count()).toBe(0);
  });
});
