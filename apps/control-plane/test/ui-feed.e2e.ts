import * as fs from 'node:fs';
import WebSocket from 'ws';
import { waitFor } from './box-kit';
import { startApp, type RunningApp } from './harness';

interface Frame {
  event: string;
  data: any;
}

/** A browser on /api/ui that keeps every frame it gets. */
class Browser {
  readonly frames: Frame[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (m) => this.frames.push(JSON.parse((m as Buffer).toString()) as Frame));
  }

  static async open(api: RunningApp): Promise<Browser> {
    const ws = new WebSocket(api.url.replace('http', 'ws') + '/api/ui', {
      headers: api.authHeaders,
    });
    const browser = new Browser(ws);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return browser;
  }

  of(event: string): Frame[] {
    return this.frames.filter((f) => f.event === event);
  }

  /** Waits for the n-th frame of this event (1-based) and returns it. */
  nth(event: string, n: number): Promise<Frame> {
    return waitFor(`${event} frame #${n}`, () => this.of(event)[n - 1]);
  }

  send(event: string, data: unknown): void {
    this.ws.send(JSON.stringify({ event, data }));
  }

  close(): void {
    this.ws.close();
  }
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe('the /api/ui live feed: sidebar and session frames from the read models', () => {
  let api: RunningApp;

  beforeAll(async () => {
    api = await startApp();
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('refuses the socket without a sign-in', async () => {
    const ws = new WebSocket(api.url.replace('http', 'ws') + '/api/ui');
    const status = await new Promise<number>((resolve) =>
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(401);
  });

  it('sends the sidebar at connection and again only when the tree changed', async () => {
    const before = (await api.request('GET', '/api/sidebar')).body;
    const ui = await Browser.open(api);
    expect((await ui.nth('sidebar', 1)).data).toEqual({ nodes: before });

    const created = await api.request('POST', '/api/sessions', { title: 'Live one' });
    expect(created.status).toBe(201);
    const second = await ui.nth('sidebar', 2);
    expect(second.data).toEqual({ nodes: (await api.request('GET', '/api/sidebar')).body });
    expect(second.data.nodes.map((n: { id: string }) => n.id)).toContain(created.body.id);

    // An event that leaves the tree as it is (a notification read model, a policy) sends none.
    await api.request('PATCH', `/api/sessions/${created.body.id}/policy`, { agentTools: 'off' });
    await settle();
    expect(ui.of('sidebar')).toHaveLength(2);
    ui.close();
  });

  it('sends the watched session at watch, each part the body of its REST GET, and again on change', async () => {
    const id = (await api.request('POST', '/api/sessions', { title: 'Watched' })).body.id as string;
    const ui = await Browser.open(api);
    ui.send('watch', { sessionId: id });
    const first = (await ui.nth('session', 1)).data;
    expect(ui.of('watching')).toHaveLength(1);
    const rest = async (route: string) =>
      (await api.request('GET', `/api/sessions/${id}${route}`)).body;
    expect(first).toEqual({
      sessionId: id,
      session: await rest(''),
      queue: await rest('/queue'),
      approvals: await rest('/approvals'),
      prs: await rest('/prs'),
      verifications: await rest('/verifications'),
      recordings: await rest('/recordings'),
      notifications: await rest('/notifications'),
      snapshots: await rest('/snapshots'),
      terminals: await rest('/terminals'),
      policy: await rest('/policy'),
      limits: await rest('/limits'),
    });
    expect(first.session.title).toBe('Watched');
    expect(first.terminals).toEqual([]);

    await api.request('PATCH', `/api/sessions/${id}`, { title: 'Watched, renamed' });
    const renamed = (await ui.nth('session', 2)).data;
    expect(renamed.session).toEqual(await rest(''));
    expect(renamed.session.title).toBe('Watched, renamed');

    await api.request('PATCH', `/api/sessions/${id}/policy`, { sessionCreation: 'dont_ask' });
    const policed = (await ui.nth('session', 3)).data;
    expect(policed.policy).toEqual(await rest('/policy'));
    expect(policed.policy.own.sessionCreation).toBe('dont_ask');

    // Another session's change reaches this browser's sidebar, not its session frame.
    const sidebars = ui.of('sidebar').length;
    await api.request('POST', '/api/sessions', { title: 'Elsewhere' });
    await ui.nth('sidebar', sidebars + 1);
    await settle();
    expect(ui.of('session')).toHaveLength(3);

    // Watching none: no more session frames.
    ui.send('watch', { sessionId: null });
    await ui.nth('watching', 2);
    await api.request('PATCH', `/api/sessions/${id}`, { title: 'Unwatched' });
    await ui.nth('sidebar', sidebars + 2);
    await settle();
    expect(ui.of('session')).toHaveLength(3);
    ui.close();
  });

  it('answers bad frames with an error frame and stays usable', async () => {
    const id = (await api.request('POST', '/api/sessions', { title: 'Sturdy' })).body.id as string;
    const ui = await Browser.open(api);
    await ui.nth('sidebar', 1);
    ui.ws.send('not json at all');
    const notJson = await ui.nth('error', 1);
    expect(notJson.data).toEqual({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    ui.send('shout', { loud: true });
    expect((await ui.nth('error', 2)).data.message).toMatch(/unknown event "shout"/);
    ui.send('watch', { sessionId: 'not-a-uuid' });
    expect((await ui.nth('error', 3)).data.message).toMatch(/watch needs/);
    ui.send('typing', { typing: 'yes' });
    expect((await ui.nth('error', 4)).data.message).toMatch(/typing needs/);
    ui.send('watch', { sessionId: '00000000-0000-4000-8000-000000000000' });
    expect((await ui.nth('error', 5)).data).toMatchObject({ code: 'NOT_FOUND' });
    ui.ws.send(JSON.stringify([1, 2, 3]));
    expect((await ui.nth('error', 6)).data.message).toMatch(/JSON \{event, data\}/);
    expect(ui.of('session')).toHaveLength(0);

    // Still the same socket, and it works.
    ui.send('watch', { sessionId: id, after: -1 });
    expect((await ui.nth('session', 1)).data.session.title).toBe('Sturdy');
    const transcript = await ui.nth('transcript', 1);
    expect(transcript.data.sessionId).toBe(id);
    expect(transcript.data.entries.length).toBeGreaterThan(0);
    expect(ui.ws.readyState).toBe(WebSocket.OPEN);
    expect((await api.request('GET', '/api/health')).status).toBe(200);
    ui.close();
  });

  it('sends a browser far behind every entry it missed, across pages, once each and in order', async () => {
    const id = (await api.request('POST', '/api/sessions', { title: 'Long' })).body.id as string;
    // Each rename is a transcript marker: more than one page (500) of them.
    for (let i = 0; i < 620; i++)
      await api.request('PATCH', `/api/sessions/${id}`, { title: `Long ${i}` });
    const all: { position: number }[] = [];
    for (let after = -1; ;) {
      const page = (
        await api.request('GET', `/api/sessions/${id}/transcript?after=${after}&limit=500`)
      ).body;
      all.push(...page.entries);
      if (page.next === null) break;
      after = page.entries.at(-1).position;
    }
    expect(all.length).toBeGreaterThan(600);
    const ui = await Browser.open(api);
    ui.send('watch', { sessionId: id, after: -1 });
    const got = await waitFor('every entry', () => {
      const entries = ui.of('transcript').flatMap((f) => f.data.entries as { position: number }[]);
      return entries.length >= all.length && entries;
    });
    await settle();
    const entries = ui.of('transcript').flatMap((f) => f.data.entries as { position: number }[]);
    expect(entries.map((e) => e.position)).toEqual(all.map((e) => e.position));
    expect(got.length).toBe(all.length);
    ui.close();
  }, 60_000);
});
