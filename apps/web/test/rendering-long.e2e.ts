import { checkPage, transcriptLog } from './browser-kit';
import { sendScript, useScriptedSession } from './session-kit';

const COUNT = 600;
const burstLine = (i: number) => new RegExp(`^\\{"burst":${i},"emittedAt"`);

/** Waits until the session's transcript (over REST, every page) holds a message `text`. */
async function appended(session: ReturnType<typeof useScriptedSession>, text: string) {
  const until = Date.now() + 30_000;
  for (;;) {
    let after: number | null = 0;
    while (after !== null) {
      const page: any = (
        await session.api.request('GET', `/api/sessions/${session.id}/transcript?after=${after}`)
      ).body;
      if (page.entries.some((e: any) => e.kind === 'event' && e.event.text === text)) return;
      after = page.next;
    }
    if (Date.now() > until) throw new Error(`"${text}" never reached the transcript`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

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

    // Scrolled up to the start, the view stays put while entries come.
    await page.keyboard.press('Home');
    await log.getByText(burstLine(0)).waitFor();
    await sendScript(api, id, { say: 'While reading the start.' });
    await appended(session, 'While reading the start.');
    await page.waitForTimeout(500);
    expect(await log.getByText(burstLine(0)).count()).toBe(1);
    expect(await log.getByText('While reading the start.', { exact: true }).count()).toBe(0);

    // A reload loads the transcript 500 entries a page: once all are in, the view is at the
    // newest, not at the end of the first page.
    await page.reload();
    await log.getByText('While reading the start.', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await log.getByText(burstLine(0)).count()).toBe(0);
    expect(await log.getByText(burstLine(499)).count()).toBe(0);
  }, 180_000);
});
