import type { Page } from 'playwright-core';
import { waitFor } from '../../control-plane/test/box-kit';
import { FORM_PAGE } from '../../control-plane/test/sandbox-desktop-kit';
import { checkPage } from './browser-kit';
import { useControlPlane } from './session-kit';
import { TOKEN_PATTERN } from '../../control-plane/src/sandboxes/tokens/token-identity';

/** The share of pixels of noVNC's canvas in a framebuffer rectangle that `is` holds for. */
function share(
  page: Page,
  rect: [number, number, number, number],
  colour: 'white' | 'green',
): Promise<number> {
  return page.evaluate(
    ([[x, y, w, h], colour]) => {
      const canvas = document.querySelector<HTMLCanvasElement>('.desktop-screen canvas');
      const data = canvas?.getContext('2d')?.getImageData(x, y, w, h).data;
      if (!data) return -1;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
        if (colour === 'white' ? r > 240 && g > 240 && b > 240 : r < 30 && g > 220 && b < 30) n++;
      }
      return n / (w * h);
    },
    [rect, colour] as const,
  );
}

/** Where the page's blue button is on the canvas (the sandbox's screen coordinates). */
function blueCentre(page: Page): Promise<{ x: number; y: number; count: number }> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('.desktop-screen canvas');
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return { x: -1, y: -1, count: 0 };
    const { data, width } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let [n, sx, sy] = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] < 30 && data[i + 1] < 30 && data[i + 2] > 220) {
        n++;
        sx += (i / 4) % width;
        sy += Math.floor(i / 4 / width);
      }
    }
    return { x: Math.round(sx / (n || 1)), y: Math.round(sy / (n || 1)), count: n };
  });
}

/**
 * Clicks the canvas where the sandbox's screen has (x, y), whatever the page's scale. A locator
 * click: it waits for the canvas to take the click, and says what it waited for if it never does.
 */
async function clickScreen(page: Page, x: number, y: number): Promise<void> {
  const canvas = page.locator('.desktop-screen canvas');
  const box = await canvas.boundingBox();
  if (!box || box.width === 0) throw new Error('no desktop on the page (its canvas is empty)');
  const size = await canvas.evaluate((c: HTMLCanvasElement) => ({
    width: c.width,
    height: c.height,
  }));
  if (size.width === 0) throw new Error('the desktop canvas has no size yet');
  await canvas.click({
    position: { x: (x * box.width) / size.width, y: (y * box.height) / size.height },
    timeout: 30_000,
  });
}

/**
 * Issue 17's watch page (`/sandboxes/<id>/watch`, sandbox_desktop's `watch` link) in
 * Chromium: opened directly, it shows the sandbox's real screen through noVNC, the relay and
 * an x11vnc in the sandbox's box; a change made with sandbox_input shows on it; with control
 * a click reaches an xev window in the sandbox. One desktop for the file.
 */
describe('the sandbox watch page', () => {
  const plane = useControlPlane();
  let key = '';
  let id = '';
  const tool = async (name: string, body: Record<string, unknown>) => {
    const res = await plane.api.request('POST', `/v1/${name}`, body, {
      authorization: `Bearer ${key}`,
    });
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  };

  beforeAll(async () => {
    const made = await plane.api.request('POST', '/api/orgs/default/api-keys', {
      name: 'watch',
      scopes: ['sandboxes:read', 'sandboxes:write'],
    });
    key = made.body.key;
    id = (await tool('sandbox_create', { name: 'watched' })).id as string;
  }, 60_000);
  afterAll(async () => {
    if (id) await tool('sandbox_destroy', { sandbox: id }).catch(() => undefined);
  });

  it('says so when the desktop is not running, then shows it live once started', async () => {
    const page = await plane.signedIn();
    await page.goto(`${plane.api.url}/sandboxes/${id}/watch`);
    await page.getByRole('status').filter({ hasText: 'desktop is not running' }).waitFor();
    const started = await tool('sandbox_desktop', { sandbox: id });
    expect(started.watch).toBe(`${plane.api.url}/sandboxes/${id}/watch`);
    await tool('sandbox_write_file', { sandbox: id, path: '/root/form.html', content: FORM_PAGE });
    await tool('sandbox_open_url', { sandbox: id, urls: ['file:///root/form.html'] });
    // A real window beside the page, its clicks written to a file of the sandbox.
    await tool('sandbox_exec', {
      sandbox: id,
      command:
        'setsid xev -geometry 500x400+700+0 -event button >/tmp/xev.log 2>&1 </dev/null & sleep 1',
    });

    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Live: watching.' }).waitFor();
    await page.waitForFunction(() => {
      const c = document.querySelector<HTMLCanvasElement>('.desktop-screen canvas');
      return c !== null && c.width === 1280 && c.height === 800;
    });
    await waitFor(
      'the xev window',
      async () => (await share(page, [750, 50, 400, 300], 'white')) > 0.95,
    );

    // The screen changes: the page's button, clicked through the API, paints it green.
    const page0 = [0, 400, 600, 300] as [number, number, number, number];
    expect(await share(page, page0, 'green')).toBeLessThan(0.1);
    const blue = await blueCentre(page);
    expect(blue.count).toBeGreaterThan(5000);
    await tool('sandbox_input', { sandbox: id, action: 'click', x: blue.x, y: blue.y });
    await waitFor(
      'the green page on the canvas',
      async () => (await share(page, page0, 'green')) > 0.9,
      15_000,
    );

    // Watching only: a click on the canvas does not reach the window.
    const clicks = async () =>
      (await tool('sandbox_exec', { sandbox: id, command: 'cat /tmp/xev.log' })).stdout as string;
    await clickScreen(page, 900, 200);
    await new Promise((r) => setTimeout(r, 700));
    expect(await clicks()).not.toMatch(/ButtonPress/);

    await page.getByRole('button', { name: 'Take control' }).click();
    await page.getByRole('status').filter({ hasText: 'you control' }).waitFor();
    await clickScreen(page, 900, 200);
    await waitFor('the click in xev', async () =>
      /ButtonPress event[\s\S]*button 1/.test(await clicks()),
    );
    await checkPage(page, 'sandbox-watch');

    const log = await plane.api.request('GET', `/api/streams/desktopview-sandbox-${id}/events`);
    const opened = (log.body.events as { type: string; data: { control: boolean } }[]).filter(
      (e) => e.type === 'DesktopViewOpened',
    );
    expect(opened.map((e) => e.data.control)).toEqual([false, true]);
  }, 120_000);

  it('with #token= the page needs no sign-in; a view token watches and cannot take control', async () => {
    const { token } = (await tool('sandbox_create_token', {
      sandbox: id,
      abilities: ['view'],
    })) as {
      token: string;
    };
    const { browser } = await plane.browser();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${plane.api.url}/sandboxes/${id}/watch#token=sbt_not-a-real-token`);
      await page.getByRole('heading', { name: 'Sandbox desktop' }).waitFor();
      expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
      await page.getByRole('status').filter({ hasText: 'the token is not valid' }).waitFor();

      await page.goto(`${plane.api.url}/sandboxes/${id}/watch#token=${token}`);
      await page.reload();
      await page.getByRole('status').filter({ hasText: 'Live: watching.' }).waitFor();
      await page.getByRole('button', { name: 'Take control' }).click();
      await page.getByRole('status').filter({ hasText: 'This link can watch only' }).waitFor();
      // The secret stays in the page: the token's view is recorded by its id, not its text.
      const log = await plane.api.request('GET', `/api/streams/desktopview-sandbox-${id}/events`);
      const last = (log.body.events as { type: string; data: Record<string, unknown> }[])
        .filter((e) => e.type === 'DesktopViewOpened')
        .pop();
      expect(last?.data).toMatchObject({ control: false, tokenId: expect.any(String) });
      // The secret is base64url: it may hold '_' itself, so it is read by the token's pattern.
      const secret = TOKEN_PATTERN.exec(token)![2];
      expect(JSON.stringify(log.body)).not.toContain(secret);
    } finally {
      await context.close();
    }
  });
});
