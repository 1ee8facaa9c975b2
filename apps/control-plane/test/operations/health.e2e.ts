import * as fs from 'node:fs';
import { allProjections } from '@sessionboxer/projections';
import { startApp, type RunningApp } from '../harness';

describe('/api/health: liveness for anyone, readiness with details for a sign-in', () => {
  let api: RunningApp;
  const none = { authorization: '' };

  beforeAll(async () => {
    api = await startApp();
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('answers liveness publicly with the status only', async () => {
    const live = await api.request('GET', '/api/health', undefined, none);
    expect(live).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('refuses readiness without a sign-in with 401, saying how', async () => {
    const refused = await api.request('GET', '/api/health/ready', undefined, none);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/sign in/);
  });

  it('shows a signed-in person the store, its head and every projection', async () => {
    await api.request('POST', '/api/sessions', { title: 'Ready?' });
    const ready = await api.request('GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', eventStore: 'sqlite' });
    expect(ready.body.headPosition).toBeGreaterThanOrEqual(0);
    const names = (ready.body.projections as { projection: string }[]).map((p) => p.projection);
    expect(names.sort()).toEqual(allProjections.map((p) => p.name).sort());
  });
});
