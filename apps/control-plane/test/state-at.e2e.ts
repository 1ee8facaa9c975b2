import * as fs from 'node:fs';
import { startApp, type RunningApp } from './harness';

describe('admin API: a session as it was at a point of the history', () => {
  let api: RunningApp;
  let id: string;
  /** After each step: the head position and what GET /api/sessions/:id showed then. */
  const seen: { position: number; title: string; status: string }[] = [];

  async function record() {
    const [last] = (await api.request('GET', '/api/events?direction=backwards&limit=1')).body
      .events;
    const live = (await api.request('GET', `/api/sessions/${id}`)).body;
    seen.push({ position: last.position, title: live.title, status: live.status });
  }

  beforeAll(async () => {
    api = await startApp();
    id = (await api.request('POST', '/api/sessions', { title: 'One' })).body.id as string;
    await record();
    await api.request('PATCH', `/api/sessions/${id}`, { title: 'Two' });
    await record();
    await api.request('POST', `/api/sessions/${id}/stop`, {});
    await record();
  });
  afterAll(async () => {
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('folds the title and status as they were at each position', async () => {
    for (const then of seen) {
      const reply = await api.request('GET', `/api/sessions/${id}/at?position=${then.position}`);
      expect(reply.status).toBe(200);
      expect(reply.body.position).toBe(then.position);
      expect(reply.body.session).toMatchObject({ status: then.status, title: then.title });
      expect(reply.body.transcript.length).toBeGreaterThan(0);
    }
  });

  it('takes a time instead', async () => {
    const reply = await api.request(
      'GET',
      `/api/sessions/${id}/at?time=${new Date().toISOString()}`,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.session).toMatchObject({ title: 'Two', status: 'stopped' });
  });

  it.each([
    ['', /exactly one of position/],
    ['?position=1&time=2026-01-01T00:00:00Z', /exactly one of position/],
    ['?position=-1', /position must be an integer/],
    ['?position=1.5', /position must be an integer/],
    ['?time=yesterday', /time must be an ISO-8601 time/],
  ])('refuses %s with a 400 naming what is wrong', async (query, message) => {
    const reply = await api.request('GET', `/api/sessions/${id}/at${query}`);
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toMatch(message);
  });

  it('answers 404 for a session that did not exist at that point', async () => {
    const early = await api.request('GET', `/api/sessions/${id}/at?time=2000-01-01T00:00:00Z`);
    expect(early.status).toBe(404);
    expect(JSON.stringify(early.body)).toMatch(/did not exist at 2000-01-01T00:00:00Z/);
    const none = await api.request('GET', `/api/sessions/nope/at?position=${seen[2].position}`);
    expect(none.status).toBe(404);
  });
});
