import type { Locator, Page } from 'playwright-core';
import WebSocket from 'ws';
import { UiPresence } from '../../control-plane/src/presence/ui-presence';
import type { RunningApp } from '../../control-plane/test/harness';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage } from './browser-kit';
import { paneTab, useScriptedSession } from './session-kit';

jest.setTimeout(120_000);

/** The rows of a live xterm as the person sees them, one string per row, trailing blanks cut. */
const rowsOf = (xterm: Locator): Promise<string[]> =>
  xterm
    .locator('.xterm-rows > div')
    .evaluateAll((rows) => rows.map((r) => (r.textContent ?? '').replace(/\s+$/, '')));

async function typeLine(page: Page, xterm: Locator, line: string): Promise<void> {
  await xterm.locator('.xterm-screen').click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/** The last `stty size` the shell printed after `mark`, as [rows, cols]. */
async function sttySize(page: Page, xterm: Locator, mark: string): Promise<[number, number]> {
  await typeLine(page, xterm, `echo "${mark} $(stty size)"`);
  const row = await waitFor(`the ${mark} line`, async () =>
    (await rowsOf(xterm)).find((r) => new RegExp(`^${mark} \\d+ \\d+$`).test(r)),
  );
  const [, rows, cols] = row.split(' ').map(Number);
  return [rows, cols];
}

/**
 * Drops the browser's /api/ui socket from the server's side and, before the page reconnects
 * (500 ms later), has the shell print `line` through a socket of the test's own.
 */
async function printWhileAway(api: RunningApp, sessionId: string, line: string): Promise<void> {
  const presence = api.app.get<UiPresence>(UiPresence) as unknown as {
    clients: Map<WebSocket, unknown>;
  };
  const browsers = [...presence.clients.keys()];
  for (const socket of browsers) socket.terminate();
  const [terminal] = (await api.request('GET', `/api/sessions/${sessionId}/terminals`)).body;
  const own = new WebSocket(api.url.replace('http', 'ws') + '/api/ui', {
    headers: api.authHeaders,
  });
  await new Promise((r) => own.once('open', r));
  const data = { sessionId, terminalId: terminal.id, data: `${line}\r` };
  own.send(JSON.stringify({ event: 'session.terminal.input', data }));
  await new Promise((r) => setTimeout(r, 150));
  own.close();
}

/**
 * A session's box Terminals are live in the Terminals pane (issue 15, "Live panes"): the
 * person opens their own, types into it in Chromium, sees the output with its colours, the
 * PTY follows the pane's size, the output so far comes back after a reload exactly once, and
 * an exited Terminal says why it takes no input.
 */
describe('live box Terminals in the web UI', () => {
  const session = useScriptedSession('Live panes');

  it('opens a person’s terminal, typeable and live, coloured, resized, caught up and refused once exited', async () => {
    const { api, id } = session;
    const page = await session.openView();
    await page.setViewportSize({ width: 1280, height: 900 });
    await paneTab(page, 'Terminals').click();
    await page.getByRole('button', { name: 'New terminal' }).click();
    const terminal = page.getByRole('article', { name: /^Terminal [0-9a-f]{8}$/ });
    await terminal.waitFor({ timeout: 30_000 });
    const xterm = terminal.getByRole('region', { name: /^Output of Terminal / });
    await xterm.locator('.xterm-rows').waitFor();
    await waitFor('the prompt', async () => (await rowsOf(xterm)).some((r) => /[#$] ?$/.test(r)));

    // Typed in the page, answered live by the box's shell.
    await typeLine(page, xterm, 'echo $((6*7))');
    await waitFor('42 in the xterm', async () => (await rowsOf(xterm)).includes('42'));

    // Colour is kept: "red" is drawn in the theme's red, "plain" in the default colour.
    await typeLine(page, xterm, "printf '\\033[31mred\\033[0m plain\\n'");
    const red = xterm.locator('.xterm-rows span.xterm-fg-1', { hasText: /^red$/ });
    await red.first().waitFor({ timeout: 10_000 });
    const colour = await red.first().evaluate((e) => getComputedStyle(e).color);
    expect(colour).toBe('rgb(255, 107, 107)');
    const plain = await xterm
      .locator('.xterm-rows span', { hasText: /plain$/ })
      .last()
      .evaluate((e) => ({ className: e.className, color: getComputedStyle(e).color }));
    expect(plain.className).not.toMatch(/xterm-fg-/);
    expect(plain.color).not.toBe(colour);

    // The PTY takes the pane's size: a wider window (the pane is a share of it) gives more
    // columns, and the shell sees them.
    const [rows, before] = await sttySize(page, xterm, 'before');
    expect(rows).toBeGreaterThan(0);
    await page.setViewportSize({ width: 1900, height: 900 });
    const after = await waitFor('a wider PTY', async () => {
      const [, cols] = await sttySize(page, xterm, `after${Date.now() % 1000}`);
      return cols > before ? cols : null;
    });
    expect(after).toBeGreaterThan(before);
    await page.setViewportSize({ width: 1280, height: 900 });

    // After a reload the pane shows the output so far from the history: once, nothing lost.
    await page.reload();
    await paneTab(page, 'Terminals').click();
    await xterm.locator('.xterm-rows').waitFor();
    await waitFor('the output so far', async () => (await rowsOf(xterm)).includes('42'));
    expect((await rowsOf(xterm)).filter((r) => r === '42')).toHaveLength(1);
    expect((await rowsOf(xterm)).filter((r) => r === 'red plain')).toHaveLength(1);

    // Bytes that came while the socket was away show once it is back, once.
    await printWhileAway(api, id, 'echo missed-$((5*5))');
    await waitFor('the missed output', async () => (await rowsOf(xterm)).includes('missed-25'));
    await page.waitForTimeout(300);
    expect((await rowsOf(xterm)).filter((r) => r === 'missed-25')).toHaveLength(1);

    await checkPage(page, 'terminals-pane-live');

    // Once the shell has exited, a keystroke is refused and the pane says why.
    await typeLine(page, xterm, 'exit');
    await terminal.getByText(/exited with 0/).waitFor({ timeout: 15_000 });
    await xterm.locator('.xterm-screen').click();
    await page.keyboard.type('x');
    const alert = terminal.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/has exited \(exit code 0\): it takes no more input/);

    // REST opened nothing else; the Terminal is the person's own login shell.
    const listed = (await api.request('GET', `/api/sessions/${id}/terminals`)).body;
    expect(listed).toEqual([expect.objectContaining({ exitCode: 0 })]);
    expect(listed[0].command).toBeUndefined();
  });
});
