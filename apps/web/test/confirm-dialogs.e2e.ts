import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { turnFinished } from '../../control-plane/test/agent/agent-kit';
import { waitFor } from '../../control-plane/test/box-kit';
import { callTool } from '../../control-plane/test/schedule-kit';
import { checkA11y, checkPage, treeItem } from './browser-kit';
import { paneTab, resultOf, sb, sendScript, useScriptedSession, workspaceOf } from './session-kit';

/** The confirmation dialog asking `question`, once it shows, its Cancel focused. */
async function asked(page: Page, question: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: question });
  await dialog.waitFor();
  await waitFor('focus on Cancel', () =>
    dialog.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement),
  );
  return dialog;
}

/**
 * Revert, Stop and Delete ask first, in an accessible dialog (not window.confirm): Escape
 * and Cancel leave everything as it was. And the chip of a session says working while its
 * agent's turn runs, idle after. A scripted session in a real box.
 */
describe('the confirmations, and the chip of a working session', () => {
  const plane = useScriptedSession('Careful', { browserPerTest: true });
  const status = async () =>
    (await plane.api.request('GET', `/api/sessions/${plane.id}`)).body.status as string;

  it('the chip says working while a turn runs and idle once it ends', async () => {
    const { api, id } = plane;
    const page = await plane.openView();
    const chip = page.locator('.session-facts .status');
    await waitFor('idle', async () => (await chip.textContent()) === 'idle');
    await sendScript(api, id, { say: 'Busy for a while.' }, { sleep: 5 });
    await waitFor('working', async () => (await chip.textContent()) === 'working', 20_000);
    expect(await treeItem(page, 'Careful').locator('.status').first().textContent()).toBe(
      'working',
    );
    await turnFinished(api, id, 1);
    await waitFor('idle again', async () => (await chip.textContent()) === 'idle');
  });

  it('Revert asks first; Escape keeps the workspace as it is', async () => {
    const { api, id } = plane;
    const file = path.join(workspaceOf(api, id), 'careful.txt');
    fs.writeFileSync(file, 'version 1\n');
    const turn =
      ((await api.request('GET', `/api/sessions/${id}/conversation?limit=1`)).body.conversation
        ?.turns ?? 0) + 1;
    await sendScript(api, id, sb('snapshot'), { say: 'Took one.' });
    await resultOf(api, id, turn, 'snapshot');
    await turnFinished(api, id, turn);
    fs.writeFileSync(file, 'version 2\n');

    const page = await plane.openView();
    await paneTab(page, 'Snapshots').click();
    const snapshot = page
      .getByRole('tabpanel')
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Snapshot 1' }) });
    const revert = snapshot.getByRole('button', { name: 'Revert' });
    await revert.click();
    const dialog = await asked(page, 'Revert to Snapshot 1?');
    expect(await dialog.textContent()).toMatch(/changes made since it are lost/);
    await checkPage(page, 'confirm-revert');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // Focus is back on the button that asked.
    expect(await revert.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('version 2\n');
    expect(await snapshot.getByRole('status').textContent()).toBe('');

    await revert.click();
    await (
      await asked(page, 'Revert to Snapshot 1?')
    )
      .getByRole('button', { name: 'Revert' })
      .click();
    await snapshot.getByRole('status').getByText('Reverted to Snapshot 1').waitFor();
    expect(fs.readFileSync(file, 'utf8')).toBe('version 1\n');
  }, 60_000);

  it('Delete of a scheduled task asks first; Cancel keeps it', async () => {
    const { api, id } = plane;
    const created = await callTool(api, id, 'schedule_create', {
      cron: '0 0 1 1 *',
      name: 'Yearly report',
      action: { type: 'prompt', text: 'Write the report.' },
    });
    const listed = async () =>
      ((await api.request('GET', '/api/schedules')).body as { id: string }[]).some(
        (s) => s.id === created.id,
      );
    const page = await plane.signedIn();
    await page.getByRole('link', { name: 'Settings' }).click();
    const item = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { name: 'Yearly report' }),
    });
    await item.getByRole('button', { name: 'Delete' }).click();
    const dialog = await asked(page, 'Delete the scheduled task “Yearly report”?');
    await checkA11y(page, 'confirm-delete-schedule');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await listed()).toBe(true);

    await item.getByRole('button', { name: 'Delete' }).click();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await listed()).toBe(true);

    await item.getByRole('button', { name: 'Delete' }).click();
    await (
      await asked(page, 'Delete the scheduled task “Yearly report”?')
    )
      .getByRole('button', { name: 'Delete' })
      .click();
    await item.waitFor({ state: 'detached' });
    expect(await listed()).toBe(false);
  });

  it('Stop asks first; Escape keeps the session running', async () => {
    const page = await plane.openView();
    const stop = page.getByRole('button', { name: 'Stop session' });
    await stop.click();
    const dialog = await asked(page, 'Stop this session?');
    await checkA11y(page, 'confirm-stop');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await status()).toBe('running');

    await stop.click();
    await (
      await asked(page, 'Stop this session?')
    )
      .getByRole('button', { name: 'Stop session' })
      .click();
    await page.getByRole('button', { name: 'Resume session' }).waitFor();
    expect(await status()).toBe('stopped');
    await waitFor(
      'the chip to say stopped',
      async () => (await page.locator('.session-facts .status').textContent()) === 'stopped',
    );
  });
});
