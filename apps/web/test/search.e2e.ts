import type { Page } from 'playwright-core';
import { turnFinished } from '../../control-plane/test/agent/agent-kit';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage, sidebar, transcriptLog } from './browser-kit';
import { scriptedSession, sendScript, useControlPlane } from './session-kit';

const PLAIN = 'Aardvark study';
const XSS_TITLE = '<img src=x onerror="window.__xss = 1"> Narwhal notes';
const XSS_REPLY = 'The narwhal tusk <script>window.__xss = 2</script> is a tooth.';
const FILLER = Array.from({ length: 40 }, (_, i) => ({ say: `Filler line ${i + 1}.` }));

/**
 * The sidebar's search, over two scripted sessions whose agents (the scripted harness in real
 * boxes) said different words: results live as you type, only the right session's, a click
 * opens it with the entry in view; a probe in a title and a reply shows as text.
 */
describe('search in the sidebar', () => {
  const plane = useControlPlane({
    boxes: true,
    setup: async (api) => {
      const plain = await scriptedSession(api, PLAIN);
      const probe = await scriptedSession(api, XSS_TITLE);
      await sendScript(api, plain, { say: 'The aardvark digs burrows at night.' }, ...FILLER);
      await sendScript(api, probe, { say: XSS_REPLY });
      await turnFinished(api, plain, 1, 60_000);
      await turnFinished(api, probe, 1, 60_000);
    },
  });
  const box = (page: Page) =>
    page.getByRole('combobox', { name: 'Search sessions and transcripts' });
  const results = (page: Page) => sidebar(page).getByRole('listbox', { name: 'Search results' });

  it('shows the right session’s entries as you type and opens one at its entry', async () => {
    const page = await plane.signedIn();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+Shift+F');
    await waitFor('the box focused', () => box(page).evaluate((f) => f === document.activeElement));
    await page.keyboard.type('aardv');
    const options = results(page).getByRole('option');
    await options.first().waitFor();
    const texts = await options.allTextContents();
    // Its title, the prompt (the script names the word) and the reply.
    expect(texts.length).toBe(3);
    expect(texts.every((t) => t.startsWith(PLAIN))).toBe(true);
    expect(texts.some((t) => /Narwhal/i.test(t))).toBe(false);
    const reply = results(page).getByRole('option', { name: /Reply/ });
    expect(await reply.locator('mark').textContent()).toBe('aardvark');
    await checkPage(page, 'search-results');

    // The keyboard: down to the reply, Enter opens it.
    const names = await options.evaluateAll((os) => os.map((o) => o.textContent ?? ''));
    for (let i = 0; i < names.findIndex((n) => n.includes('Reply')); i++) {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: PLAIN }).waitFor();
    const row = transcriptLog(page).locator('li.entry-found');
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('The aardvark digs burrows at night.');
    await waitFor('the entry in view', async () => {
      const [r, log] = await Promise.all([row.boundingBox(), transcriptLog(page).boundingBox()]);
      return r !== null && log !== null && r.y >= log.y && r.y + r.height <= log.y + log.height;
    });
    // Scrolled to it, not left at the bottom: 40 lines came after it.
    const atBottom = await transcriptLog(page).evaluate(
      (el) => el.scrollHeight - el.scrollTop - el.clientHeight < 10,
    );
    expect(atBottom).toBe(false);
  });

  it('shows a probe in a title and a reply as text, and says when nothing matches', async () => {
    const page = await plane.signedIn();
    await box(page).fill('narwhal');
    const options = results(page).getByRole('option');
    // The last query's results stay until the new ones come.
    await results(page)
      .getByRole('option', { name: /Narwhal notes/ })
      .first()
      .waitFor();
    await waitFor('three results', async () => (await options.count()) === 3);
    const title = results(page).getByRole('option', { name: /Title/ });
    expect(await title.locator('.search-title').textContent()).toBe(XSS_TITLE);
    const reply = results(page).getByRole('option', { name: /Reply/ });
    expect(await reply.textContent()).toContain('<script>window.__xss = 2</script>');
    expect(await results(page).locator('img, script').count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__xss)).toBe(undefined);
    await reply.click();
    await page.getByRole('heading', { level: 1, name: XSS_TITLE }).waitFor();
    expect(await page.evaluate(() => (window as any).__xss)).toBe(undefined);

    await box(page).fill('zzqxj');
    await sidebar(page).locator('.search-status').getByText('No matches.').waitFor();
    await checkPage(page, 'search-empty');
    await box(page).press('Escape');
    expect(await box(page).inputValue()).toBe('');
  });
});
