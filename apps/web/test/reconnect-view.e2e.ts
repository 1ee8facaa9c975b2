import * as fs from 'node:fs';
import { startApp, tempDataDir, type RunningApp } from '../../control-plane/test/harness';
import {
  markPage,
  openBrowser,
  signIn,
  stillSamePage,
  treeItem,
  type BrowserKit,
} from './browser-kit';

/**
 * The server goes away and comes back on the same port (the same data folder, so the sign-in
 * holds): a view whose load failed meanwhile (it said "Session not found") loads again by itself
 * once the socket is back, without navigating away and back.
 */
describe('a view after the server comes back', () => {
  const dataDir = tempDataDir();
  let api: RunningApp | undefined;
  let kit: BrowserKit | undefined;
  afterAll(async () => {
    // The requests refused while the server was gone are what the test is about.
    const errors = kit?.errors.filter((e) => !/ERR_CONNECTION_REFUSED/.test(e)) ?? [];
    if (errors.length) console.warn(errors.join('\n'));
    await kit?.close();
    await api?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reloads a session that could not be loaded while the server was gone', async () => {
    api = await startApp(dataDir);
    const port = new URL(api.url).port;
    await api.request('POST', '/api/sessions', { title: 'First' });
    await api.request('POST', '/api/sessions', { title: 'Second' });
    kit = await openBrowser();
    const { page } = kit;
    await signIn(page, api);
    await treeItem(page, 'Second').waitFor();
    await markPage(page);
    const badge = page.locator('.live');
    await badge.filter({ hasText: 'Live' }).waitFor();

    await api.close();
    api = undefined;
    await badge.filter({ hasNotText: 'Live' }).waitFor();
    // Opened while the server is gone: its load fails.
    await treeItem(page, 'Second').getByText('Second', { exact: true }).click();
    // The server is what is gone, not the session, and the page says so.
    await page.getByRole('heading', { level: 1, name: 'Cannot reach the server' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Session not found' }).count()).toBe(0);

    api = await startApp(dataDir, { SESSIONBOXER_PORT: port });
    await badge.filter({ hasText: 'Live' }).waitFor({ timeout: 20_000 });
    await page.getByRole('heading', { level: 1, name: 'Second' }).waitFor();
    await page.getByRole('log', { name: 'Transcript' }).getByText('created the Session').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await stillSamePage(page)).toBe(true);
  }, 60_000);
});
