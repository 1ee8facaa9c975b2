import { checkPage, transcriptLog } from './browser-kit';
import { sendScript, useScriptedSession } from './session-kit';

const COUNT = 600;
const burstLine = (i: number) => new RegExp(`^\\{"burst":${i},"emittedAt"`);

/**
 * A long transcript is virtualized: only the rows in view are in the page, the log keeps its
 * role and name, follows new rows at the bottom, and a keyboard scrolls it end to end.
 */
describe('a long transcript, virtualized', () => {
  const session = useScriptedSession('Long talk');

  it('draws only what is in view, sticks to the newest row, and scrolls by keyboard', async () => {
    const { api, id } = session;
    const page = await session.openView();
    await sendScript(api, id, { burst: { count: COUNT, rate: 2000 } });
    const log = transcriptLog(page);
    // The newest message shows without scrolling: the view followed it.
    await log.getByText(burstLine(COUNT - 1)).waitFor({ timeout: 60_000 });
    const drawn = await log.getByRole('listitem').count();
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(100);
    expect(await log.getByText(burstLine(0)).count()).toBe(0);

    // A new entry while at the bottom shows too (its turn waits for the burst's to end).
    await sendScript(api, id, { say: 'After the burst.' });
    await log.getByText('After the burst.', { exact: true }).waitFor({ timeout: 30_000 });

    // Home on the focused log goes to the first entries, End back to the newest.
    await log.focus();
    await page.keyboard.press('Home');
    await log.getByText(burstLine(0)).waitFor();
    await page.keyboard.press('End');
    await log.getByText('After the burst.', { exact: true }).waitFor();
    await checkPage(page, 'transcript-virtual');
  }, 120_000);
});
