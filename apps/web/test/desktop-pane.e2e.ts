import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Page } from 'playwright-core';
import type { LocalBoxDriver } from '../../control-plane/src/boxes/driver';
import { BOX_DRIVER } from '../../control-plane/src/infrastructure/tokens';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage } from './browser-kit';
import { paneTab, sb, sendScript, useScriptedSession, workspaceOf } from './session-kit';

/** The share of white pixels in a framebuffer rectangle of noVNC's canvas. */
function whiteShare(page: Page, x: number, y: number, w: number, h: number): Promise<number> {
  return page.evaluate(
    ([x, y, w, h]) => {
      const canvas = document.querySelector<HTMLCanvasElement>('.desktop-screen canvas');
      const data = canvas?.getContext('2d')?.getImageData(x, y, w, h).data;
      if (!data) return -1;
      let white = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i] > 240 && data[i + 1] > 240 && data[i + 2] > 240) white++;
      }
      return white / (w * h);
    },
    [x, y, w, h],
  );
}

/** Clicks the canvas where the box's screen has (x, y), whatever the pane's scale. */
async function clickScreen(page: Page, x: number, y: number): Promise<void> {
  const box = await page.locator('.desktop-screen canvas').boundingBox();
  if (!box) throw new Error('no desktop canvas');
  const size = await page.evaluate(() => {
    const c = document.querySelector<HTMLCanvasElement>('.desktop-screen canvas');
    return { width: c?.width ?? 0, height: c?.height ?? 0 };
  });
  await page.mouse.click(
    box.x + (x * box.width) / size.width,
    box.y + (y * box.height) / size.height,
  );
}

/**
 * Issue 15's live desktop (the viewer issue 17's watch page reuses): the box's real display
 * through noVNC, the control plane's relay and the box's x11vnc, in Chromium.
 */
describe('the Desktop pane', () => {
  const plane = useScriptedSession('Live desktop');
  const children: ChildProcess[] = [];
  let display = '';
  let events = '';

  function run(argv: string[]): ChildProcess {
    const driver = plane.api.app.get<LocalBoxDriver>(BOX_DRIVER);
    const child = driver.exec(plane.id, argv, { env: { DISPLAY: display } });
    children.push(child);
    return child;
  }

  beforeAll(() => {
    const mcp = JSON.parse(
      fs.readFileSync(path.join(workspaceOf(plane.api, plane.id), '.mcp.json'), 'utf8'),
    );
    display = mcp.mcpServers.desktop.env.DISPLAY;
  });
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it('shows the box’s screen live, and a person who takes control clicks into a window', async () => {
    // A white window in the top left corner that prints the clicks it gets.
    const xev = run([
      '/usr/bin/xev',
      '-geometry',
      '400x300+0+0',
      '-event',
      'structure',
      '-event',
      'button',
    ]);
    xev.stdout?.on('data', (d: Buffer) => (events += d.toString()));
    await waitFor('the xev window', () => events.length > 0 || null, 10_000);

    const page = await plane.openView('Live desktop');
    await paneTab(page, 'Desktop').click();
    await page.getByRole('status').filter({ hasText: 'Live: watching.' }).waitFor();
    await page.waitForFunction(() => {
      const c = document.querySelector<HTMLCanvasElement>('.desktop-screen canvas');
      return c !== null && c.width === 1024 && c.height === 768;
    });
    await waitFor(
      'the xev window on the canvas',
      async () => (await whiteShare(page, 50, 50, 300, 200)) > 0.95,
    );
    expect(await whiteShare(page, 700, 500, 200, 200)).toBeLessThan(0.5);

    // The screen changes: a new window where there was none shows up on the canvas.
    run(['/usr/bin/xlogo', '-geometry', '200x200+700+500']);
    await waitFor(
      'the xlogo window on the canvas',
      async () => (await whiteShare(page, 700, 500, 200, 200)) > 0.5,
    );

    // Watching only: a click on the canvas does not reach the window.
    await clickScreen(page, 200, 150);
    await new Promise((r) => setTimeout(r, 500));
    expect(events).not.toMatch(/ButtonPress/);

    await page.getByRole('button', { name: 'Take control' }).click();
    await page.getByRole('status').filter({ hasText: 'you control' }).waitFor();
    await page.getByRole('button', { name: 'Stop controlling' }).waitFor();
    await clickScreen(page, 200, 150);
    await waitFor('the click in xev', () => /ButtonPress event[\s\S]*button 1/.test(events));
    await checkPage(page, 'desktop-pane');

    // Who watched and who took control are events of the session's desktop.
    const log = await plane.api.request(
      'GET',
      `/api/streams/desktopview-session-${plane.id}/events`,
    );
    const opened = log.body.events.filter((e: { type: string }) => e.type === 'DesktopViewOpened');
    expect(opened.map((e: { data: { control: boolean } }) => e.data.control)).toEqual([
      false,
      true,
    ]);
  });

  it('an agent’s ui_open of the desktop opens this pane', async () => {
    const page = await plane.openView('Live desktop');
    await paneTab(page, 'Files').click();
    await sendScript(plane.api, plane.id, sb('ui_open', { pane: 'desktop' }));
    await page.waitForFunction(
      () => document.querySelector('[role=tab][aria-selected=true]')?.textContent === 'Desktop',
    );
    await page.getByRole('status').filter({ hasText: 'Live: watching.' }).waitFor();
  });
});
