import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { EventStore } from '@sessionboxer/event-store';
import { sandboxStream } from '@sessionboxer/domain/sandbox';
import { EVENT_STORE } from '../src/infrastructure/tokens';
import { SandboxDesktop } from '../src/sandboxes/desktop/sandbox-desktop.service';
import type { RunningApp } from './harness';
import { FORM_PAGE, find, pageTitles, shot, until } from './sandbox-desktop-kit';
import { call, makeKey, mcpClient, startSandboxApp } from './sandbox-kit';

/**
 * The sandbox desktop over a real MCP client (Streamable HTTP) with real bubblewrap, Xvfb,
 * xdotool and Chromium: no_desktop before start, the spec's answer fields, a form filled
 * with sandbox_input and checked in a screenshot and over DevTools, region scaling, DISPLAY
 * in sandbox_exec, a stop and resume of the sandbox, and the events recorded.
 */
let api: RunningApp;
let client: Client;
let id: string;
const sb = { sandbox: 'desk' };
const MAGENTA: [number, number, number] = [255, 0, 255];
const BLUE: [number, number, number] = [0, 0, 255];
const GREEN: [number, number, number] = [0, 255, 0];

beforeAll(async () => {
  api = await startSandboxApp();
  client = await mcpClient(api, (await makeKey(api)).key);
  id = (await call(client, 'sandbox_create', { name: 'desk' })).body.id;
}, 60_000);
afterAll(async () => {
  await call(client, 'sandbox_destroy', sb);
  await client.close();
  await api.close();
});

const ok = async (name: string, args: Record<string, unknown>) => {
  const r = await call(client, name, args);
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
  return r.body;
};

it('before start: status is not running, every other desktop tool answers no_desktop', async () => {
  expect(await ok('sandbox_desktop', { ...sb, action: 'status' })).toEqual({ running: false });
  for (const [name, args] of [
    ['sandbox_screenshot', {}],
    ['sandbox_open_url', { urls: ['about:blank'] }],
    ['sandbox_input', { action: 'cursor' }],
  ] as const) {
    const r = await call(client, name, { ...sb, ...args });
    expect([name, r.isError, r.body.error]).toEqual([name, true, 'no_desktop']);
  }
  expect((await ok('sandbox_exec', { ...sb, command: 'echo "[$DISPLAY]"' })).stdout).toBe('[]\n');
});

it('starts with the spec’s fields; sandbox_exec sees DISPLAY; a second start is the same', async () => {
  const started = await ok('sandbox_desktop', sb);
  expect(started).toEqual({
    running: true,
    size: '1280x800',
    display: ':1',
    vnc_port: null,
    devtools: 'http://127.0.0.1:9222',
    browser: 'chromium',
    watch: `${api.url}/sandboxes/${id}/watch`,
  });
  const geometry = await ok('sandbox_exec', {
    ...sb,
    command: 'echo "$DISPLAY"; xdotool getdisplaygeometry',
  });
  expect(geometry.stdout).toBe(':1\n1280 800\n');
  expect(await ok('sandbox_desktop', { ...sb, action: 'status' })).toEqual(started);
  expect(await ok('sandbox_desktop', sb)).toEqual(started);
  const other = await call(client, 'sandbox_desktop', { ...sb, resolution: '1920x1080' });
  expect(other.body).toMatchObject({ error: 'invalid_argument', details: { field: 'resolution' } });
}, 60_000);

it('fills a form with clicks and typing, seen in a screenshot and in the page title', async () => {
  await ok('sandbox_write_file', { ...sb, path: '/root/form.html', content: FORM_PAGE });
  expect(await ok('sandbox_open_url', { ...sb, urls: ['file:///root/form.html'] })).toEqual({
    done: 'open',
  });
  const page = await until(client, id, (s) => find(s.png, MAGENTA).count > 1000);
  expect(page.size).toEqual({ width: 1280, height: 800 });
  expect([page.png.width, page.png.height]).toEqual([1280, 800]);
  const field = find(page.png, MAGENTA);
  const button = find(page.png, BLUE);
  expect(field.count).toBeGreaterThan(1000);
  expect(button.count).toBeGreaterThan(1000);
  expect(find(page.png, GREEN).count).toBe(0);

  expect(await ok('sandbox_input', { ...sb, action: 'click', x: field.x, y: field.y })).toEqual({
    done: 'click',
  });
  expect(await ok('sandbox_input', { ...sb, action: 'cursor' })).toEqual({
    x: field.x,
    y: field.y,
  });
  expect(await ok('sandbox_input', { ...sb, action: 'type', text: 'Ada L' })).toEqual({
    done: 'type',
  });
  await ok('sandbox_input', { ...sb, action: 'key', keys: ['BackSpace'], repeat: 2 });
  await ok('sandbox_input', { ...sb, action: 'click', x: button.x, y: button.y });
  const after = await until(client, id, (s) => find(s.png, GREEN).count > 100_000);
  expect(find(after.png, GREEN).count).toBeGreaterThan(100_000);
  expect(await pageTitles(client, id)).toContain('Hello Ada');
}, 90_000);

it('a region is scaled up to fit the screen keeping its aspect ratio', async () => {
  const wide = await shot(client, { ...sb, region: [0, 0, 640, 200] });
  expect(wide.size).toEqual({ width: 1280, height: 400 });
  expect([wide.png.width, wide.png.height]).toEqual([1280, 400]);
  const tall = await shot(client, { ...sb, region: [100, 100, 300, 500] });
  expect(tall.size).toEqual({ width: 400, height: 800 });
  const bad = await call(client, 'sandbox_screenshot', { ...sb, region: [10, 10, 5, 20] });
  expect(bad.body).toMatchObject({ error: 'invalid_argument', details: { field: 'region' } });
  const outside = await call(client, 'sandbox_screenshot', { ...sb, region: [0, 0, 1281, 20] });
  expect(outside.body.details.field).toBe('region');
});

it('keeps running through a sandbox stop and resume (frozen with the box)', async () => {
  await ok('sandbox_stop', sb);
  expect((await call(client, 'sandbox_screenshot', sb)).body.error).toBe('not_running');
  await ok('sandbox_resume', sb);
  const s = await shot(client, sb);
  expect(find(s.png, GREEN).count).toBeGreaterThan(100_000);
}, 60_000);

it('records started, inputs (what, not where or the text) and stop as events', async () => {
  expect(await ok('sandbox_desktop', { ...sb, action: 'stop' })).toEqual({ running: false });
  expect((await call(client, 'sandbox_screenshot', sb)).body.error).toBe('no_desktop');
  expect((await ok('sandbox_exec', { ...sb, command: 'echo "[$DISPLAY]"' })).stdout).toBe('[]\n');
  const alive = await ok('sandbox_exec', { ...sb, command: 'pgrep -c -x Xvfb; pgrep -c chromium' });
  expect(alive.stdout).toBe('0\n0\n');
  const events = await api.app.get<EventStore>(EVENT_STORE).readStream(sandboxStream(id));
  const desktop = events.filter((e) => e.type.startsWith('SandboxDesktop'));
  expect(desktop.map((e) => e.type)).toEqual([
    'SandboxDesktopStarted',
    'SandboxDesktopUrlsOpened',
    'SandboxDesktopInputSent',
    'SandboxDesktopInputSent',
    'SandboxDesktopInputSent',
    'SandboxDesktopInputSent',
    'SandboxDesktopStopped',
  ]);
  expect(desktop[0].data).toMatchObject({ width: 1280, height: 800, display: ':1' });
  expect((desktop[0].data as { actions: string[] }).actions).toContain('input.scroll');
  expect(desktop.slice(2, 6).map((e) => (e.data as { input: unknown }).input)).toEqual([
    { action: 'click', button: 'left', count: 1 },
    { action: 'type', characters: 5 },
    { action: 'key', keys: ['BackSpace'], count: 2 },
    { action: 'click', button: 'left', count: 1 },
  ]);
  expect(JSON.stringify(events)).not.toContain('Ada');
  expect(desktop[6].data).toMatchObject({ reason: 'requested' });
}, 60_000);

it("lets go of a destroyed sandbox's desktop: the engine this instance held for it", async () => {
  const gone = (await ok('sandbox_create', { name: 'desk-gone' })) as { id: string };
  await ok('sandbox_desktop', { sandbox: 'desk-gone' });
  await ok('sandbox_input', { sandbox: 'desk-gone', action: 'cursor' });
  const desktop = api.app.get(SandboxDesktop);
  expect(desktop.holds(gone.id)).toBe(true);
  await ok('sandbox_destroy', { sandbox: 'desk-gone' });
  for (let i = 0; i < 100 && desktop.holds(gone.id); i++)
    await new Promise((r) => setTimeout(r, 50));
  expect(desktop.holds(gone.id)).toBe(false);
}, 120_000);
