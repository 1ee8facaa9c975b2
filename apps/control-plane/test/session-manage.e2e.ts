import * as fs from 'node:fs';
import type { EventStore } from '@sessionboxer/event-store';
import { sessionStream } from '@sessionboxer/domain';
import { EVENT_STORE } from '../src/infrastructure/tokens';
import { startApp, type RunningApp } from './harness';

/** Archive, unarchive and delete over HTTP, without boxes (session-manage-box covers the box). */
describe('admin API: archiving and deleting sessions', () => {
  let api: RunningApp;
  beforeEach(async () => {
    api = await startApp();
  });
  afterEach(async () => {
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  const create = async (title: string) =>
    (await api.request('POST', '/api/sessions', { title })).body.id as string;
  const sidebarIds = async (query = '') =>
    (await api.request('GET', `/api/sidebar${query}`)).body.map((n: { id: string }) => n.id);

  it('hides an archived session from the sidebar unless archived=true, and unarchives it', async () => {
    const a = await create('Kept');
    const b = await create('Old');
    const archived = await api.request('POST', `/api/sessions/${b}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ id: b, archived: true });
    expect(await sidebarIds()).toEqual([a]);
    expect(await sidebarIds('?archived=true')).toEqual([a, b]);
    // Still a session: it opens and answers as before.
    expect((await api.request('GET', `/api/sessions/${b}`)).body.title).toBe('Old');
    const back = await api.request('POST', `/api/sessions/${b}/unarchive`);
    expect(back.body.archived).toBe(false);
    expect(await sidebarIds()).toEqual([a, b]);
  });

  it('names the field of a bad sidebar filter', async () => {
    const res = await api.request('GET', '/api/sidebar?archived=yes');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/archived must be one of true, false/);
  });

  it('refuses to delete a running session with a 409 that says why', async () => {
    const id = await create('Busy');
    const res = await api.request('DELETE', `/api/sessions/${id}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'INVALID_STATE' });
    expect(res.body.message).toMatch(/is running: stop it before deleting it/);
    expect(await sidebarIds()).toEqual([id]);
  });

  it('deletes a stopped session from every list, keeping its history', async () => {
    const id = await create('Done');
    const other = await create('Other');
    await api.request('POST', `/api/sessions/${id}/stop`, {});
    const res = await api.request('DELETE', `/api/sessions/${id}`);
    expect(res.status).toBe(204);
    expect(await sidebarIds('?archived=true')).toEqual([other]);
    const listed = (await api.request('GET', '/api/sessions')).body.map((s: any) => s.id);
    expect(listed).toEqual([other]);
    expect((await api.request('GET', `/api/sessions/${id}`)).status).toBe(404);
    const again = await api.request('DELETE', `/api/sessions/${id}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toMatch(/was deleted/);
    const events = await api.app.get<EventStore>(EVENT_STORE).readStream(sessionStream(id));
    expect(events.map((e) => e.type)).toEqual([
      'SessionCreated',
      'SessionStopped',
      'SessionDeleted',
    ]);
    // Auditors still get its bundle: the export reads the log, not the read models.
    const bundle = await fetch(`${api.url}/api/sessions/${id}/export`, {
      headers: api.authHeaders,
    });
    expect(bundle.status).toBe(200);
    expect(await bundle.text()).toContain('SessionDeleted');
    const none = await fetch(
      `${api.url}/api/sessions/00000000-0000-4000-8000-000000000000/export`,
      {
        headers: api.authHeaders,
      },
    );
    expect(none.status).toBe(404);
  });
});
