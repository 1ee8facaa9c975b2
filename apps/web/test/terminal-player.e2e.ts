import { turnFinished } from '../../control-plane/test/agent/agent-kit';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage } from './browser-kit';
import { paneTab, sb, sendScript, useScriptedSession } from './session-kit';

/** A Terminal's recorded output plays in the Terminals pane with asciinema-player. */
describe('the Terminal recording player', () => {
  const session = useScriptedSession('Player');

  it("plays a Terminal's whole output, from the history", async () => {
    const { api, id } = session;
    const command = 'echo "first line"; sleep 0.3; echo "played back in full"';
    await sendScript(api, id, sb('ui_open', { pane: 'terminal', terminal: { command } }));
    await turnFinished(api, id, 1);
    await waitFor('the Terminal to exit', async () => {
      const list = (await api.request('GET', `/api/sessions/${id}/terminals`)).body;
      return list.length > 0 && list[0].exitCode !== null;
    });
    const errors: string[] = [];
    const page = await session.openView();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await paneTab(page, 'Terminals').click();
    await page.getByRole('button', { name: 'Play the recording' }).click();
    const player = page.getByRole('region', { name: 'Terminal recording' });
    await player.getByText('played back in full').waitFor({ timeout: 15_000 });
    expect(await player.getByText('first line').count()).toBeGreaterThan(0);
    expect(errors.filter((e) => /Content Security Policy|WebAssembly/.test(e))).toEqual([]);
    await checkPage(page, 'terminal-player');
  });
});
