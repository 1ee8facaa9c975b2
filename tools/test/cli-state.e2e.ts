/**
 * `state` against the data folder a real control plane left: it prints what
 * GET /api/sessions/:id/at answered while the control plane ran, and refuses a bad point.
 */
import * as fs from 'node:fs';
import { startApp } from '../../apps/control-plane/test/harness';
import { cli } from './store-kit';

describe('state at a point, from the command line', () => {
  let dataDir: string;
  let id: string;
  const answered: { position: number; body: unknown }[] = [];

  beforeAll(async () => {
    const api = await startApp();
    dataDir = api.dataDir;
    id = (await api.request('POST', '/api/sessions', { title: 'One' })).body.id as string;
    for (const title of ['Two', 'Three']) {
      await api.request('PATCH', `/api/sessions/${id}`, { title });
      const [last] = (await api.request('GET', '/api/events?direction=backwards&limit=1')).body
        .events;
      const reply = await api.request('GET', `/api/sessions/${id}/at?position=${last.position}`);
      answered.push({ position: last.position, body: reply.body });
    }
    await api.close();
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('prints the state the API gave at each position', async () => {
    for (const { position, body } of answered) {
      const res = await cli(['state', id, '--data', dataDir, '--position', String(position)]);
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout)).toEqual(body);
    }
    const [first, second] = answered.map((a) => a.body as { session: { title: string } });
    expect([first.session.title, second.session.title]).toEqual(['Two', 'Three']);
  });

  it('refuses a point that is not exactly one position or time', async () => {
    const both = await cli(['state', id, '--data', dataDir, '--position', '1', '--time', 'x']);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/exactly one of position/);
    const bad = await cli(['state', id, '--data', dataDir, '--time', 'noon']);
    expect(bad.stderr).toMatch(/time must be an ISO-8601 time/);
  });
});
