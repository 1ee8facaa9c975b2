import * as fs from 'node:fs';
import * as path from 'node:path';
import { turnFinished } from '../../control-plane/test/agent/agent-kit';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage } from './browser-kit';
import { paneTab, selectedTab, sendScript, useScriptedSession, workspaceOf } from './session-kit';

/**
 * The Timeline pane shows the session's layers in one order, filters them by kind and links into
 * the panes; the Snapshots pane lists each turn's automatic snapshot with Fork from turn N and
 * Rewind to turn N, which act on that turn's files.
 */
describe('the Timeline and the turn snapshots', () => {
  const session = useScriptedSession('Two turns');

  beforeAll(async () => {
    const { api, id } = session;
    const notes = path.join(workspaceOf(api, id), 'notes.md');
    for (const turn of [1, 2]) {
      fs.writeFileSync(notes, `as of turn ${turn}\n`);
      await sendScript(api, id, { say: `Turn ${turn} done.` });
      await turnFinished(api, id, turn);
      await waitFor(`turn ${turn}'s snapshot`, async () =>
        (await api.request('GET', `/api/sessions/${id}/snapshots/turns`)).body.find(
          (s: { turn: number }) => s.turn === turn,
        ),
      );
    }
  }, 90_000);

  it('filters the timeline by kind and opens the pane an entry links to', async () => {
    const page = await session.openView();
    await paneTab(page, 'Timeline').click();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText('turn 2 started', { exact: false }).waitFor();
    await timeline.getByText('the box is ready').first().waitFor();
    await checkPage(page, 'timeline-pane');

    await page.getByRole('checkbox', { name: 'snapshot' }).check();
    await timeline.getByText('snapshot of turn 1', { exact: false }).waitFor();
    await waitFor(
      'only snapshots',
      async () => (await timeline.getByRole('listitem').count()) === 2,
    );
    await timeline.getByRole('button', { name: 'Show in snapshots' }).first().click();
    expect(await selectedTab(page).textContent()).toBe('Snapshots');
  });

  it('rewinds to turn 1 and forks from turn 1 from the Snapshots pane', async () => {
    const { api, id } = session;
    const page = await session.openView();
    await paneTab(page, 'Snapshots').click();
    const turns = page.getByRole('list', { name: 'Turns' });
    await turns.getByRole('heading', { name: 'Turn 2' }).waitFor();
    await page.getByRole('button', { name: 'Rewind to turn 1' }).click();
    // It asks first (the confirmations): Escape leaves the files, Rewind goes on.
    const asked = page.getByRole('dialog', { name: 'Rewind to turn 1?' });
    await asked.waitFor();
    await page.keyboard.press('Escape');
    await asked.waitFor({ state: 'hidden' });
    expect(fs.readFileSync(path.join(workspaceOf(api, id), 'notes.md'), 'utf8')).not.toBe(
      'as of turn 1\n',
    );
    await page.getByRole('button', { name: 'Rewind to turn 1' }).click();
    await asked.getByRole('button', { name: 'Rewind' }).click();
    await page.getByText('Rewound to turn 1').waitFor();
    expect(fs.readFileSync(path.join(workspaceOf(api, id), 'notes.md'), 'utf8')).toBe(
      'as of turn 1\n',
    );

    await page.getByRole('button', { name: 'Fork from turn 1' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith(id));
    const fork = new URL(page.url()).pathname.split('/').at(-1) as string;
    expect(fs.readFileSync(path.join(workspaceOf(api, fork), 'notes.md'), 'utf8')).toBe(
      'as of turn 1\n',
    );
    // The fork's transcript is the origin's conversation up to the end of turn 1.
    const transcript = page.getByRole('region', { name: 'Conversation' });
    await transcript.getByText('Turn 1 done.').first().waitFor();
    expect(await transcript.getByText('Turn 2 done.').count()).toBe(0);
  });
});
