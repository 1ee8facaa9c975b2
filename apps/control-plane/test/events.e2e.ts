import * as fs from 'node:fs';
import { startApp, type RunningApp } from './harness';

describe('admin API: the raw event history for auditors', () => {
  let api: RunningApp;
  let ids: string[];

  beforeAll(async () => {
    api = await startApp();
    ids = [];
    for (const title of ['One', 'Two', 'Three']) {
      ids.push((await api.request('POST', '/api/sessions', { title })).body.id as string);
    }
    await api.request('PATCH', `/api/sessions/${ids[0]}`, { title: 'One renamed' });
  });
  afterAll(async () => {
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('pages $all forwards by position with a cursor to the next page', async () => {
    const first = (await api.request('GET', '/api/events?limit=3')).body;
    expect(first.events.map((e: { type: string }) => e.type)).toEqual([
      'SessionCreated',
      'SessionCreated',
      'SessionCreated',
    ]);
    expect(first.next).not.toBeNull();
    const second = (await api.request('GET', `/api/events?from=${first.next}&limit=3`)).body;
    expect(second.events.map((e: { type: string }) => e.type)).toEqual(['SessionTitleSet']);
    expect(second.next).toBeNull();
    const positions = [...first.events, ...second.events].map(
      (e: { position: number }) => e.position,
    );
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(positions).size).toBe(4);
  });

  it('carries the metadata of every event: command, correlation, causation, actor and time', async () => {
    const [event] = (await api.request('GET', '/api/events?limit=1')).body.events;
    expect(event.metadata).toEqual({
      commandId: expect.any(String),
      correlationId: event.metadata.commandId,
      causationId: event.metadata.commandId,
      actor: { kind: 'person', id: api.credentials.username },
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(event.streamName).toBe(`session-${ids[0]}`);
  });

  it('reads $all backwards from the end', async () => {
    const page = (await api.request('GET', '/api/events?direction=backwards&limit=2')).body;
    expect(page.events.map((e: { type: string }) => e.type)).toEqual([
      'SessionTitleSet',
      'SessionCreated',
    ]);
    expect(page.events[0].position).toBeGreaterThan(page.events[1].position);
  });

  it("reads one session's stream by revision", async () => {
    const page = (await api.request('GET', `/api/streams/session-${ids[0]}/events`)).body;
    expect(page.events.map((e: { revision: number }) => e.revision)).toEqual([0, 1]);
    const fromOne = (await api.request('GET', `/api/streams/session-${ids[0]}/events?from=1`)).body;
    expect(fromOne.events.map((e: { type: string }) => e.type)).toEqual(['SessionTitleSet']);
    const none = (await api.request('GET', '/api/streams/session-unknown/events')).body;
    expect(none).toEqual({ events: [], next: null });
  });

  it.each([
    ['/api/events?limit=0', /limit/],
    ['/api/events?limit=5000', /limit/],
    ['/api/events?from=-3', /from/],
    ['/api/events?from=abc', /from/],
    ['/api/events?direction=sideways', /direction/],
    ['/api/streams/$all/events', /stream/],
    ['/api/sessions/x/transcript?limit=0', /limit/],
  ])('refuses %s with a 400 that says why', async (url, why) => {
    const res = await api.request('GET', url);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(why);
  });
});
