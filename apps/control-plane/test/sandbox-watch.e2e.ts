import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocket } from 'ws';
import { RfbProbe, webSocketWire } from '../../box-agent/src/desktop-view/test/rfb-probe';
import type { BoxDriver } from '../src/boxes';
import { BOX_DRIVER } from '../src/infrastructure/tokens';
import { waitFor } from './box-kit';
import type { RunningApp } from './harness';
import { FORM_PAGE, find, shot, until } from './sandbox-desktop-kit';
import { TOKEN_PROTOCOL } from '../src/sandboxes/watch/sandbox-viewer';
import { call, makeKey, mcpClient, startSandboxApp } from './sandbox-kit';
import { TOKEN_PATTERN } from '../src/sandboxes/tokens/token-identity';

/**
 * The sandbox desktop's live view (`/api/sandbox-view`, the watch page's socket) with a real
 * bubblewrap box, Xvfb, Chromium, x11vnc run in the box, and an RFB client over the socket:
 * the refusals before the desktop runs, a person's control reaching an xev window, a change
 * made through sandbox_input arriving as a framebuffer update, view-only input dropped, and
 * the views recorded as events.
 */
jest.setTimeout(90_000);

let api: RunningApp;
let client: Client;
let id: string;
let keyId: string;
let xev: ChildProcess | null = null;
let clicks = '';
const open: WebSocket[] = [];
const sb = { sandbox: 'watched' };
const BLUE: [number, number, number] = [0, 0, 255];
const GREEN: [number, number, number] = [0, 255, 0];

const ok = async (name: string, args: Record<string, unknown>) => {
  const r = await call(client, name, { ...sb, ...args });
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
  return r.body;
};

function connect(
  query: string,
  headers: Record<string, string> = api.authHeaders,
  token?: string,
): WebSocket {
  const url = `${api.url.replace(/^http/, 'ws')}/api/sandbox-view?${query}`;
  const ws = token
    ? new WebSocket(url, [TOKEN_PROTOCOL], { headers })
    : new WebSocket(url, { headers });
  if (token) ws.once('open', () => ws.send(token));
  ws.on('error', () => undefined);
  open.push(ws);
  return ws;
}

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
}

async function view(control: boolean, token?: string): Promise<{ ws: WebSocket; rfb: RfbProbe }> {
  const ws = connect(
    `sandbox=${id}&control=${control ? 1 : 0}`,
    token ? {} : api.authHeaders,
    token,
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  const rfb = new RfbProbe(webSocketWire(ws));
  await rfb.handshake();
  return { ws, rfb };
}

async function viewEvents() {
  const res = await api.request('GET', `/api/streams/desktopview-sandbox-${id}/events`);
  return (res.body.events ?? []) as { type: string; data: Record<string, unknown> }[];
}

beforeAll(async () => {
  api = await startSandboxApp(process.env.WATCH_LOGS ? process.stderr : undefined);
  const made = await makeKey(api);
  keyId = made.keyId;
  client = await mcpClient(api, made.key);
  id = (await call(client, 'sandbox_create', { name: 'watched' })).body.id;
}, 60_000);
afterAll(async () => {
  for (const ws of open) ws.terminate();
  xev?.kill('SIGKILL');
  await call(client, 'sandbox_destroy', sb);
  await client.close();
  await api.close();
});

it('refuses with a close code and the reason: a bad query, no sandbox, no sign-in, no desktop', async () => {
  expect(await closed(connect('sandbox=nope'))).toEqual({
    code: 4400,
    reason: 'invalid_argument: sandbox must be a sandbox id',
  });
  const missing = `${'0'.repeat(8)}-0000-4000-8000-000000000000`;
  expect(await closed(connect(`sandbox=${missing}`))).toEqual({
    code: 4404,
    reason: `not_found: there is no sandbox ${missing}`,
  });
  expect(await closed(connect(`sandbox=${id}`, {}))).toEqual({
    code: 4401,
    reason: 'unauthenticated: sign in first, or open the watch link with its #token=',
  });
  expect(await closed(connect(`sandbox=${id}`))).toEqual({
    code: 4409,
    reason:
      'no_desktop: the desktop of sandbox watched is not running: start it with sandbox_desktop',
  });
  expect(await viewEvents()).toEqual([]);
});

it('with control: the screen, a click reaching a window in the box, a change as an update', async () => {
  await ok('sandbox_desktop', {});
  await ok('sandbox_write_file', { path: '/root/form.html', content: FORM_PAGE });
  await ok('sandbox_open_url', { urls: ['file:///root/form.html'] });
  const page = await until(client, id, (s) => find(s.png, BLUE).count > 1000);
  const button = find(page.png, BLUE);
  expect(button.count).toBeGreaterThan(1000);
  // A real window beside the page: it prints every click it receives.
  const driver = api.app.get<BoxDriver>(BOX_DRIVER);
  xev = driver.exec(id, ['xev', '-geometry', '500x400+700+0', '-event', 'button'], {
    env: { DISPLAY: ':1' },
  });
  xev.stdout?.on('data', (d: Buffer) => (clicks += d.toString()));
  await waitFor('the xev window', () => clicks.length > 0 || null, 10_000).catch(() => undefined);

  const { ws, rfb } = await view(true);
  expect([rfb.width, rfb.height]).toEqual([1280, 800]);
  const before = clicks.length;
  rfb.pointer(900, 200, 0);
  rfb.pointer(900, 200, 1);
  rfb.pointer(900, 200, 0);
  await waitFor('the click in xev', () =>
    /ButtonPress event[\s\S]*button 1/.test(clicks.slice(before)),
  );

  rfb.requestUpdate(false);
  expect((await rfb.update()).length).toBeGreaterThan(0);
  rfb.requestUpdate(true);
  await ok('sandbox_input', { action: 'click', x: button.x, y: button.y });
  // Updates until the page's repaint: a caret's blink or the pointer may come first.
  let area = 0;
  const deadline = Date.now() + 15_000;
  while (area <= 10_000 && Date.now() < deadline) {
    const changed = await rfb.update(Math.max(1, deadline - Date.now()));
    area += changed.reduce((n, r) => n + r.w * r.h, 0);
    if (area <= 10_000) rfb.requestUpdate(true);
  }
  expect(area).toBeGreaterThan(10_000);
  expect(find((await shot(client, sb)).png, GREEN).count).toBeGreaterThan(10_000);

  const gone = closed(ws);
  ws.close();
  await gone;
  await waitFor('the view recorded closed', async () =>
    (await viewEvents()).some((e) => e.type === 'DesktopViewClosed'),
  );
  const recorded = await viewEvents();
  expect(recorded.map((e) => e.type)).toEqual(['DesktopViewOpened', 'DesktopViewClosed']);
  expect(recorded[0].data).toMatchObject({
    target: 'sandbox',
    targetId: id,
    control: true,
    by: api.credentials.username,
  });
  expect(recorded[1].data).toMatchObject({ viewId: recorded[0].data.viewId, reason: 'closed' });
});

it('watching only: the screen, and a click never reaches the box', async () => {
  const { ws, rfb } = await view(false);
  expect(await rfb.frame()).toMatchObject({ type: 0 });
  const before = clicks.length;
  rfb.pointer(900, 250, 1);
  rfb.pointer(900, 250, 0);
  await new Promise((r) => setTimeout(r, 1000));
  expect(clicks.slice(before)).not.toMatch(/ButtonPress/);
  ws.close();
  await waitFor(
    'the view recorded closed',
    async () => (await viewEvents()).filter((e) => e.type === 'DesktopViewClosed').length === 2,
  );
  expect((await viewEvents())[2].data).toMatchObject({ control: false });
});

it('a sandbox token: a view token watches and cannot take control, a control token can', async () => {
  const mint = async (abilities: string[]) =>
    (await ok('sandbox_create_token', { abilities })).token as string;
  const viewToken = await mint(['view']);
  const controlToken = await mint(['control']);
  expect(await closed(connect(`sandbox=${id}&control=1`, {}, viewToken))).toEqual({
    code: 4403,
    reason: 'forbidden: a view token cannot take control',
  });
  expect((await closed(connect(`sandbox=${id}`, {}, 'sbt_nope'))).code).toBe(4401);
  const other = `${'0'.repeat(8)}-0000-4000-8000-000000000000`;
  expect((await closed(connect(`sandbox=${other}`, {}, viewToken))).code).toBe(4403);

  const watching = await view(false, viewToken);
  expect([watching.rfb.width, watching.rfb.height]).toEqual([1280, 800]);
  watching.ws.close();
  const { ws, rfb } = await view(true, controlToken);
  const before = clicks.length;
  rfb.pointer(950, 220, 0);
  rfb.pointer(950, 220, 1);
  rfb.pointer(950, 220, 0);
  await waitFor('the click in xev', () =>
    /ButtonPress event[\s\S]*button 1/.test(clicks.slice(before)),
  );
  ws.close();
  await waitFor(
    'the token views recorded closed',
    async () => (await viewEvents()).filter((e) => e.type === 'DesktopViewClosed').length === 4,
  );
  const tokenViews = (await viewEvents()).filter(
    (e) => e.type === 'DesktopViewOpened' && e.data.tokenId !== undefined,
  );
  expect(tokenViews.map((e) => [e.data.control, e.data.by])).toEqual([
    [false, `api-key:${keyId}`],
    [true, `api-key:${keyId}`],
  ]);
  // The secret is base64url: it may hold '_' itself, so it is read by the token's pattern.
  expect(JSON.stringify(await viewEvents())).not.toContain(TOKEN_PATTERN.exec(viewToken)![2]);
});

it('the desktop stopped: an open view ends (box_gone), a new one is refused no_desktop', async () => {
  const { ws } = await view(false);
  const gone = closed(ws);
  await ok('sandbox_desktop', { action: 'stop' });
  expect((await gone).code).toBe(4410);
  expect((await closed(connect(`sandbox=${id}`))).code).toBe(4409);
  await waitFor('the view recorded gone', async () =>
    (await viewEvents()).some((e) => e.data.reason === 'box_gone'),
  );
});
