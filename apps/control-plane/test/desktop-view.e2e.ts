import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { WebSocket } from 'ws';
import { RfbProbe, webSocketWire } from '../../box-agent/src/desktop-view/test/rfb-probe';
import type { LocalBoxDriver } from '../src/boxes/driver';
import { BOX_DRIVER } from '../src/infrastructure/tokens';
import { waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

interface Opened {
  ws: WebSocket;
  rfb: RfbProbe;
}

describe("the live desktop view: a person's RFB relayed to the box's x11vnc", () => {
  let api: RunningApp;
  let id: string;
  let xev: ChildProcess | null = null;
  let events = '';
  const open: WebSocket[] = [];

  function connect(query: string, headers = api.authHeaders): WebSocket {
    const ws = new WebSocket(`${api.url.replace(/^http/, 'ws')}/api/desktop-view?${query}`, {
      headers,
    });
    ws.on('error', () => undefined);
    open.push(ws);
    return ws;
  }

  async function view(control: boolean): Promise<Opened> {
    const ws = connect(`session=${id}&control=${control ? 1 : 0}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    const rfb = new RfbProbe(webSocketWire(ws));
    await rfb.handshake();
    return { ws, rfb };
  }

  /** The close code and reason the page would show. */
  function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
    return new Promise((resolve) =>
      ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  async function viewEvents() {
    const res = await api.request('GET', `/api/streams/desktopview-session-${id}/events`);
    return res.body.events as { type: string; data: Record<string, unknown> }[];
  }

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    id = (await api.request('POST', '/api/sessions', { title: 'Watched' })).body.id;
    const workspace = (await waitForBox(api, id)).box.workspacePath;
    const mcp = JSON.parse(fs.readFileSync(path.join(workspace, '.mcp.json'), 'utf8'));
    const display: string = mcp.mcpServers.desktop.env.DISPLAY;
    const driver = api.app.get<LocalBoxDriver>(BOX_DRIVER);
    // A real window on the box's display: it prints every click it receives.
    xev = driver.exec(id, ['/usr/bin/xev', '-geometry', '600x400+0+0', '-event', 'button'], {
      env: { DISPLAY: display },
    });
    xev.stdout?.on('data', (d: Buffer) => (events += d.toString()));
    await waitFor('the xev window', () => events.length > 0 || null, 5000).catch(() => undefined);
  });
  afterAll(async () => {
    for (const ws of open) ws.terminate();
    xev?.kill('SIGKILL');
    await api?.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('a person with control sees the screen and their click reaches a window in the box', async () => {
    const { ws, rfb } = await view(true);
    expect([rfb.width, rfb.height]).toEqual([1024, 768]);
    const before = events;
    rfb.pointer(200, 150, 0);
    rfb.pointer(200, 150, 1);
    rfb.pointer(200, 150, 0);
    await waitFor('the click in xev', () =>
      /ButtonPress event[\s\S]*button 1/.test(events.slice(before.length)),
    );
    expect(await rfb.frame()).toMatchObject({ type: 0 });
    const gone = closed(ws);
    ws.close();
    await gone;
    await waitFor('the view recorded closed', async () =>
      (await viewEvents()).some((e) => e.type === 'DesktopViewClosed'),
    );
    const recorded = await viewEvents();
    expect(recorded[0]).toMatchObject({
      type: 'DesktopViewOpened',
      data: { target: 'session', targetId: id, control: true, by: api.credentials.username },
    });
    expect(recorded[1]).toMatchObject({ type: 'DesktopViewClosed', data: { reason: 'closed' } });
  });

  it('a person watching only sees the screen; their click never reaches the box', async () => {
    const { rfb } = await view(false);
    expect(await rfb.frame()).toMatchObject({ type: 0 });
    const before = events.length;
    rfb.pointer(300, 200, 1);
    rfb.pointer(300, 200, 0);
    await new Promise((r) => setTimeout(r, 700));
    expect(events.slice(before)).not.toMatch(/ButtonPress/);
  });

  it('refuses, with the reason, a bad query, a missing session, and no sign-in', async () => {
    const bad = connect('session=nope');
    expect(await closed(bad)).toEqual({ code: 4400, reason: 'session must be a session id' });
    const missing = connect(`session=${'0'.repeat(8)}-0000-4000-8000-000000000000`);
    expect(await closed(missing)).toMatchObject({
      code: 4404,
      reason: expect.stringMatching(/no session/),
    });
    const anonymous = connect(`session=${id}`, {});
    const status = await new Promise<number>((resolve) =>
      anonymous.once('unexpected-response', (_, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(401);
  });
});
