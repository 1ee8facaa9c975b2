import * as fs from 'node:fs';
import { runTool } from './call-kit';
import { startApp, type RunningApp } from './harness';

const URL = 'https://github.com/octo/app.git';

/** Global settings' repositories over REST, and the session edges that take repo names (boxes off). */
describe('repositories in Global settings', () => {
  let api: RunningApp;
  let lead: string;

  beforeAll(async () => {
    api = await startApp();
    await api.request('PATCH', '/api/settings', { sessionboxer: { sessionCreation: 'dont_ask' } });
    lead = (await api.request('POST', '/api/sessions', { title: 'Lead', provider: 'scripted' }))
      .body.id;
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('adds, lists, changes and refuses bad or duplicate repositories, naming what was wrong', async () => {
    expect((await api.request('GET', '/api/settings/repositories')).body).toEqual([]);
    const bad = await api.request('POST', '/api/settings/repositories', {
      name: 'a/b',
      cloneUrl: 'file:///etc',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/name: name must be 1–100 letters/);
    expect(bad.body.message).toContain('cloneUrl: cloneUrl must be an https:// (or http://) URL');
    const secret = await api.request('POST', '/api/settings/repositories', {
      name: 'app',
      cloneUrl: 'https://x:ghp_secret@github.com/octo/app.git',
    });
    expect(secret.status).toBe(400);
    expect(secret.body.message).toMatch(/must not hold a user or password/);
    const added = await api.request('POST', '/api/settings/repositories', {
      name: 'app',
      cloneUrl: URL,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: 'app', cloneUrl: URL, defaultBranch: 'main' });
    const twice = await api.request('POST', '/api/settings/repositories', {
      name: 'App',
      cloneUrl: URL,
    });
    expect(twice.status).toBe(409);
    const changed = await api.request('PUT', '/api/settings/repositories/app', {
      defaultBranch: 'trunk',
    });
    expect(changed.body).toMatchObject({ name: 'app', defaultBranch: 'trunk' });
    expect((await api.request('PUT', '/api/settings/repositories/nope', {})).status).toBe(404);
    expect((await api.request('GET', '/api/settings/repositories')).body).toHaveLength(1);
  });

  it('gives a session its repos and branch; an unknown name is refused and creates nothing', async () => {
    const created = await api.request('POST', '/api/sessions', {
      title: 'On app',
      provider: 'scripted',
      repos: ['app'],
    });
    expect(created.body).toMatchObject({
      repos: ['app'],
      branch: `sessionboxer/${created.body.id.slice(0, 8)}`,
    });
    const plain = await api.request('POST', '/api/sessions', {
      title: 'Plain',
      provider: 'scripted',
    });
    expect(plain.body).toMatchObject({ repos: [], branch: null });
    const count = (await api.request('GET', '/api/sessions')).body.length;
    const refused = await api.request('POST', '/api/sessions', { title: 'X', repos: ['ghost'] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('unknown repository "ghost"');
    const malformed = await api.request('POST', '/api/sessions', { title: 'X', repos: ['../etc'] });
    expect(malformed.status).toBe(400);
    expect((await api.request('GET', '/api/sessions')).body).toHaveLength(count);
  });

  it('session_create takes repos; schedule_create refuses an unknown one before it is saved', async () => {
    const child = await runTool(api, lead, 'c-1', 'session_create', {
      first_prompt: 'Work on app',
      provider: 'scripted',
      repos: ['app'],
    });
    const view = (await api.request('GET', `/api/sessions/${child.sessionId}`)).body;
    expect(view).toMatchObject({
      repos: ['app'],
      branch: `sessionboxer/${child.sessionId.slice(0, 8)}`,
    });
    await expect(
      runTool(api, lead, 'c-2', 'session_create', { first_prompt: 'x', repos: ['ghost'] }),
    ).rejects.toThrow(/unknown repository "ghost"/);
    await expect(
      runTool(api, lead, 'c-3', 'schedule_create', {
        cron: '0 9 * * *',
        action: { type: 'new_session', prompt: 'Nightly', repos: ['ghost'] },
      }),
    ).rejects.toThrow(/unknown repository "ghost"/);
    expect((await api.request('GET', '/api/schedules')).body).toEqual([]);
  });

  it('removes one; sessions that had it keep their names', async () => {
    expect((await api.request('DELETE', '/api/settings/repositories/app')).status).toBe(204);
    expect((await api.request('GET', '/api/settings/repositories')).body).toEqual([]);
    expect((await api.request('DELETE', '/api/settings/repositories/app')).status).toBe(404);
    const sessions = (await api.request('GET', '/api/sessions')).body as { repos: string[] }[];
    expect(sessions.some((s) => s.repos.includes('app'))).toBe(true);
  });
});
