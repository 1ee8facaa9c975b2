import * as fs from 'node:fs';
import * as path from 'node:path';
import { turnFinished } from '../../control-plane/test/agent/agent-kit';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage, startsWith, stillSamePage, transcriptLog, treeItem } from './browser-kit';
import {
  browserOn,
  paneTab,
  resultOf,
  sb,
  scriptedSession,
  selectedTab,
  sendScript,
  toolResults,
  useControlPlane,
  workspaceOf,
} from './session-kit';

/**
 * The session view's panes as the agent (the scripted harness, in a real box) drives them:
 * its ui_open shows a pane (a Terminal running its command) to a browser on the session that
 * is not typing, and leaves one whose person is typing alone; Snapshots it took are reverted
 * and forked from the Snapshots pane.
 */
describe('the panes, driven by the agent', () => {
  const plane = useControlPlane({ boxes: true, browserPerTest: true });

  it('ui_open shows the Terminals pane with its command’s output, but not while the person types', async () => {
    const { api } = plane;
    const id = await scriptedSession(api, 'Dev server');
    const page = await plane.openView('Dev server');
    const log = transcriptLog(page);
    expect(await selectedTab(page).textContent()).toBe('PRs');

    // Nobody types: the agent's ui_open switches the tab by itself, and the Terminal's
    // retained output (read from the box) shows there.
    await browserOn(api, id, false);
    await sendScript(
      api,
      id,
      sb('ui_open', { pane: 'terminal', terminal: { command: 'echo hello-from-pane; sleep 1' } }),
      { say: 'Opened a Terminal.' },
    );
    await paneTab(page, 'Terminals').and(page.locator('[aria-selected="true"]')).waitFor({
      timeout: 30_000,
    });
    const opened = await resultOf(api, id, 1, 'ui_open');
    expect(opened).toMatchObject({ pane: 'terminal', shown: true });
    const terminalId = opened.terminalId as string;
    expect(terminalId).toEqual(expect.any(String));
    const pane = page.getByRole('tabpanel');
    const terminal = pane.getByRole('article', { name: 'echo hello-from-pane; sleep 1' });
    await terminal.waitFor();
    const output = terminal.getByLabel(/^Output of /);
    await output.getByText('hello-from-pane').waitFor({ timeout: 15_000 });
    await terminal.getByText(/exited with 0/).waitFor({ timeout: 15_000 });
    expect(await selectedTab(page).textContent()).toBe('Terminals');
    // What shows is what the box retained for that Terminal.
    const read = await api.request('GET', `/api/sessions/${id}/terminals/${terminalId}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: terminalId, exitCode: 0 });
    expect(read.body.text).toContain('hello-from-pane');
    expect(await output.textContent()).toContain(read.body.text.trim());
    const listed = (await api.request('GET', `/api/sessions/${id}/terminals`)).body;
    expect(listed).toEqual([expect.objectContaining({ id: terminalId, exitCode: 0 })]);
    await turnFinished(api, id, 1);
    expect(await stillSamePage(page)).toBe(true);
    await checkPage(page, 'terminals-pane-ui-open');

    // The person types in the Prompt field (without sending): a ui_open is not shown.
    const prompt = page.getByLabel('Prompt');
    await prompt.focus();
    await prompt.pressSequentially('a message I am writ');
    await browserOn(api, id, true);
    await sendScript(api, id, sb('ui_open', { pane: 'snapshots' }), {
      say: 'Asked for the Snapshots pane.',
    });
    // They keep typing, as someone writing a message does, until the agent's call is answered.
    const notShown = await waitFor(
      'the ui_open while typing',
      async () => {
        await prompt.press('i');
        return (await toolResults(api, id, 2)).find((r) => r.name === 'ui_open')?.value;
      },
      30_000,
    );
    expect(notShown).toMatchObject({ pane: 'snapshots', terminalId: null, shown: false });
    // The message after the call comes over the same socket after any pane frame would have.
    await log.getByText('Asked for the Snapshots pane.', { exact: true }).waitFor();
    expect(await selectedTab(page).textContent()).toBe('Terminals');
    expect(await paneTab(page, 'Snapshots').getAttribute('aria-selected')).toBe('false');
    expect(await prompt.inputValue()).toMatch(/^a message I am writi+$/);
    await checkPage(page, 'ui-open-while-typing');
    await turnFinished(api, id, 2);

    // Once the field is empty they are no longer typing, and the same call is shown.
    await prompt.fill('');
    await browserOn(api, id, false);
    await sendScript(api, id, sb('ui_open', { pane: 'snapshots' }));
    await paneTab(page, 'Snapshots').and(page.locator('[aria-selected="true"]')).waitFor({
      timeout: 30_000,
    });
    expect(await resultOf(api, id, 3, 'ui_open')).toMatchObject({
      pane: 'snapshots',
      shown: true,
    });
    await turnFinished(api, id, 3);
    expect(await stillSamePage(page)).toBe(true);
  }, 120_000);

  it('the Snapshots pane: Revert puts the workspace back; Fork opens a new session', async () => {
    const { api } = plane;
    const id = await scriptedSession(api, 'Snap');
    const workspace = workspaceOf(api, id);
    const file = path.join(workspace, 'notes.txt');
    // The scripted agent writes no files: the test does, as the agent's work would.
    fs.writeFileSync(file, 'version 1\n');
    await sendScript(api, id, sb('snapshot'), { say: 'Snapshot taken.' });
    const taken = await resultOf(api, id, 1, 'snapshot');
    expect(taken).toMatchObject({ ordinal: 1 });
    await turnFinished(api, id, 1);
    fs.writeFileSync(file, 'version 2, after the snapshot\n');
    fs.writeFileSync(path.join(workspace, 'later.txt'), 'made after the snapshot\n');

    const page = await plane.openView('Snap');
    // The transcript's marker links to the snapshot in its pane.
    await transcriptLog(page)
      .getByRole('link', { name: /took Snapshot 1/ })
      .click();
    await paneTab(page, 'Snapshots').and(page.locator('[aria-selected="true"]')).waitFor();
    const snapshot = page
      .getByRole('tabpanel')
      .getByRole('list', { name: 'Snapshots' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Snapshot 1' }) });
    await snapshot.waitFor();
    await checkPage(page, 'snapshots-pane');

    await snapshot.getByRole('button', { name: 'Revert' }).click();
    await page
      .getByRole('dialog', { name: 'Revert to Snapshot 1?' })
      .getByRole('button', { name: 'Revert' })
      .click();
    await snapshot.getByRole('status').getByText('Reverted to Snapshot 1').waitFor();
    expect(fs.readFileSync(file, 'utf8')).toBe('version 1\n');
    expect(fs.existsSync(path.join(workspace, 'later.txt'))).toBe(false);
    await transcriptLog(page).getByText('reverted the Session to Snapshot 1').waitFor();
    expect(await stillSamePage(page)).toBe(true);
    await checkPage(page, 'snapshots-pane-reverted');

    await snapshot.getByRole('button', { name: 'Fork' }).click();
    await page.getByRole('heading', { level: 1, name: 'Snap (fork)' }).waitFor({ timeout: 15_000 });
    // In the sidebar, in the group of the session it was forked from.
    await treeItem(page, 'Snap')
      .getByRole('group')
      .getByRole('treeitem', { name: startsWith('Snap (fork)') })
      .waitFor();
    const forkId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    expect(forkId).not.toBe(id);
    const fork = (await api.request('GET', `/api/sessions/${forkId}`)).body;
    expect(fork).toMatchObject({ id: forkId, title: 'Snap (fork)', provider: 'scripted' });
    // It started from the snapshot's files.
    expect(fs.readFileSync(path.join(workspaceOf(api, forkId), 'notes.txt'), 'utf8')).toBe(
      'version 1\n',
    );
    const titles = (await api.request('GET', '/api/sessions')).body.map((s: any) => s.title);
    expect(titles.filter((t: string) => t === 'Snap (fork)')).toHaveLength(1);
    expect(await stillSamePage(page)).toBe(true);
    await checkPage(page, 'snapshot-fork');
  }, 120_000);
});
