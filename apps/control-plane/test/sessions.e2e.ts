import * as path from 'node:path';
import * as fs from 'node:fs';
import { startApp, type RunningApp } from './harness';

describe('admin API: sessions over HTTP', () => {
  let api: RunningApp;
  beforeEach(async () => {
    api = await startApp();
  });
  afterEach(async () => {
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  const create = (body: object, headers?: Record<string, string>) =>
    api.request('POST', '/api/sessions', body, headers);

  it('creates a session with defaults and shows it at once (read-your-writes)', async () => {
    const res = await create({ title: 'Backend tests' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Backend tests',
      status: 'running',
      provider: 'claude-code',
      model: 'default',
      environment: 'docker-linux',
      createdBy: null,
      forkedFrom: null,
      childOf: null,
    });
    const id = res.body.id as string;
    expect((await api.request('GET', `/api/sessions/${id}`)).body.title).toBe('Backend tests');
    const list = await api.request('GET', '/api/sessions');
    expect(list.body.map((s: { id: string }) => s.id)).toEqual([id]);
    const transcript = await api.request('GET', `/api/sessions/${id}/transcript`);
    expect(
      transcript.body.entries.map((e: any) => e.marker).map((m: { text: string }) => m.text),
    ).toEqual(['created the Session']);
  });

  it('renames, stops and resumes, leaving one marker per action', async () => {
    const id = (await create({ title: 'First' })).body.id as string;
    expect(
      (await api.request('PATCH', `/api/sessions/${id}`, { title: 'Second' })).body.title,
    ).toBe('Second');
    expect(
      (await api.request('POST', `/api/sessions/${id}/stop`, { reason: 'done' })).body.status,
    ).toBe('stopped');
    const again = await api.request('POST', `/api/sessions/${id}/stop`, {});
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'INVALID_STATE' });
    expect(again.body.message).toMatch(/already stopped/);
    expect((await api.request('POST', `/api/sessions/${id}/resume`)).body.status).toBe('running');
    const kinds = (await api.request('GET', `/api/sessions/${id}/transcript`)).body.entries
      .map((e: any) => e.marker)
      .map((m: { kind: string }) => m.kind);
    expect(kinds).toEqual([
      'session-created',
      'session-renamed',
      'session-stopped',
      'session-resumed',
    ]);
    const texts = (await api.request('GET', `/api/sessions/${id}/transcript?after=-1&limit=2`))
      .body;
    expect(texts.entries.map((e: any) => e.marker)).toHaveLength(2);
    expect(texts.entries.map((e: any) => e.marker)[1].text).toContain('Second');
    expect(texts.next).toBe(texts.entries.map((e: any) => e.marker)[1].position);
  });

  it('nests a fork under its origin in the sidebar, with the origin title as it is now', async () => {
    const parent = (await create({ title: 'Parent' })).body.id as string;
    // Boxes are off here: give the parent a workspace by hand so it can be snapshotted.
    const workspace = path.join(api.dataDir, 'boxes', parent, 'workspace');
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, 'a.txt'), 'from the parent');
    const snap = (await api.request('POST', `/api/sessions/${parent}/snapshots`)).body;
    const noSuch = await create({
      title: 'Fork',
      forkedFrom: { sessionId: parent, snapshotId: 'snap-1' },
    });
    expect(noSuch.status).toBe(400);
    expect(noSuch.body.message).toMatch(/has no snapshot snap-1/);
    const child = await create({
      title: 'Fork',
      forkedFrom: { sessionId: parent, snapshotId: snap.id },
    });
    const forkFile = path.join(api.dataDir, 'boxes', child.body.id, 'workspace', 'a.txt');
    expect(fs.readFileSync(forkFile, 'utf8')).toBe('from the parent');
    expect(child.status).toBe(201);
    await api.request('PATCH', `/api/sessions/${parent}`, { title: 'Parent renamed' });
    const tree = (await api.request('GET', '/api/sidebar')).body;
    expect(tree).toHaveLength(1);
    expect(tree[0].id).toBe(parent);
    expect(tree[0].children.map((c: { id: string }) => c.id)).toEqual([child.body.id]);
    expect(tree[0].children[0].childOf).toEqual({ sessionId: parent, title: 'Parent renamed' });
    const missing = await create({
      title: 'Orphan',
      forkedFrom: { sessionId: '00000000-0000-4000-8000-000000000000', snapshotId: 's' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/forkedFrom\.sessionId.*does not exist/);
  });

  it('returns the first result for a repeated Idempotency-Key and appends nothing', async () => {
    const headers = { 'idempotency-key': 'create-backend-1' };
    const first = await create({ title: 'Once' }, headers);
    const second = await create({ title: 'Once' }, headers);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect((await api.request('GET', '/api/sessions')).body).toHaveLength(1);
    expect((await api.request('GET', '/api/events')).body.events).toHaveLength(1);
    const bad = await create({ title: 'x' }, { 'idempotency-key': 'has space' });
    expect(bad.status).toBe(400);
  });

  it.each([
    [{}, /title/],
    [{ title: '' }, /title/],
    [{ title: 'x'.repeat(201) }, /title.*200/],
    [{ title: 42 }, /title must be a string/],
    [{ title: 'ok', environment: 'kubernetes' }, /environment/],
    [{ title: 'ok', provider: 'Not An Id' }, /provider/],
    [{ title: 'ok', isAdmin: true }, /isAdmin should not exist/],
    [{ title: 'ok', forkedFrom: { sessionId: 'nope' } }, /forkedFrom\.sessionId.*UUID/],
    [{ title: 'ok', forkedFrom: [] }, /forkedFrom must be \{ sessionId, snapshotId \}/],
  ])('refuses the body %j with a 400 naming the field', async (body, why) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_FAILED');
    expect(res.body.message).toMatch(why);
    expect((await api.request('GET', '/api/events')).body.events).toEqual([]);
  });

  it('answers malformed JSON, unknown sessions and control characters clearly', async () => {
    const broken = await api.request('POST', '/api/sessions', '{"title":');
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/not valid JSON/);
    const huge = await api.request('POST', '/api/sessions', { title: 'x'.repeat(1_100_000) });
    expect(huge.status).toBe(413);
    const unknown = await api.request('GET', '/api/sessions/does-not-exist');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      error: 'NOT_FOUND',
      message: expect.stringContaining('does-not-exist'),
    });
    const rename = await api.request('PATCH', '/api/sessions/does-not-exist', { title: 'x' });
    expect(rename.status).toBe(404);
    const id = (await create({ title: 'ok' })).body.id as string;
    const ctl = await api.request('PATCH', `/api/sessions/${id}`, { title: 'bad\u0007bell' });
    expect(ctl.status).toBe(400);
    expect(ctl.body.message).toMatch(/control/i);
  });

  it('keeps everything across a restart on the same data folder', async () => {
    const id = (await create({ title: 'Durable' })).body.id as string;
    await api.request('PATCH', `/api/sessions/${id}`, { title: 'Durable 2' });
    await api.close();
    api = await startApp(api.dataDir);
    expect((await api.request('GET', `/api/sessions/${id}`)).body.title).toBe('Durable 2');
    const id2 = (await create({ title: 'After restart' })).body.id as string;
    expect(
      (await api.request('GET', '/api/sessions')).body.map((s: { id: string }) => s.id),
    ).toEqual([id, id2]);
  });

  it('serves the OpenAPI document', async () => {
    const doc = await api.request('GET', '/api/docs-json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/sessions',
        '/api/sidebar',
        '/api/events',
        '/api/streams/{stream}/events',
      ]),
    );
    expect(doc.body.components.schemas.CreateSessionDto.required).toContain('title');
  });
});
