import * as fs from 'node:fs';
import { startApp, type RunningApp } from './harness';

/**
 * Issue 12, items 2–4: one body policy for every route (depth, size, well-formed Unicode),
 * prototype keys refused like any other unknown key, providers checked against the harnesses.
 */
describe('admin API: the body policy and the checks every body goes through', () => {
  let api: RunningApp;
  let id: string;
  beforeAll(async () => {
    api = await startApp();
    id = (await api.request('POST', '/api/sessions', { title: 'Target' })).body.id as string;
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  const head = async () =>
    (await api.request('GET', '/api/health/ready')).body.headPosition as number;
  const deepArray = (n: number) => `{"title":"deep","x":${'['.repeat(n)}${']'.repeat(n)}}`;
  const deepObject = (n: number) => `{"title":"deep","x":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`;

  it.each([
    ['POST', '/api/sessions'],
    ['PATCH', '/api/sessions/:id'],
    ['POST', '/api/sessions/:id/prompts'],
    ['PATCH', '/api/sessions/:id/policy'],
    ['PATCH', '/api/schedules/nope'],
    ['PATCH', '/api/settings'],
    ['POST', '/api/auth/sign-in'],
  ])('%s %s: a body nested 1,500 and 3,000 deep is a 400 that names the limit', async (m, r) => {
    const before = await head();
    for (const body of [deepArray(1500), deepObject(3000)]) {
      const res = await api.request(m, r.replace(':id', id), body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'VALIDATION_FAILED' });
      expect(res.body.message).toMatch(/more than 64 levels deep \(in x\)/);
    }
    expect(await head()).toBe(before);
  });

  it('takes a body nested within the limit, and says 413 for one over 1 MiB', async () => {
    const ok = await api.request('POST', `/api/sessions/${id}/stop`, '{"reason":"fine"}');
    expect(ok.status).toBe(200);
    await api.request('POST', `/api/sessions/${id}/resume`);
    const huge = await api.request('POST', '/api/sessions', { title: 'x'.repeat(1_100_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.message).toMatch(/larger than the limit of 1048576 bytes/);
  });

  it.each([
    ['POST', '/api/sessions', '{"title":"\\ud800"}', 'title'],
    ['POST', '/api/sessions', '{"title":"ok \\udc00 after"}', 'title'],
    ['PATCH', '/api/settings', '{"defaults":{"model":"a\\ud83d"}}', 'defaults.model'],
    ['POST', '/api/sessions', '{"title":"ok","forkedFrom":{"snapshotId":"\\ud800"}}', 'forkedFrom'],
  ])('%s %s %s: a lone surrogate is a 400 naming %s', async (method, route, body, field) => {
    const before = await head();
    const res = await api.request(method, route, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_FAILED');
    expect(res.body.message).toContain(field);
    expect(res.body.message).toMatch(/well-formed Unicode/);
    expect(await head()).toBe(before);
  });

  it('keeps a real emoji (a surrogate pair) as it is', async () => {
    const res = await api.request('POST', '/api/sessions', '{"title":"ship it \\ud83d\\ude80"}');
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('ship it 🚀');
  });

  it.each([
    ['{"title":"ok","__proto__":{"isAdmin":true}}', /__proto__ should not exist/],
    ['{"title":"ok","constructor":{"name":"x"}}', /constructor should not exist/],
    ['{"title":"ok","constructor":"x"}', /constructor should not exist/],
    ['{"title":"ok","prototype":1}', /prototype should not exist/],
    [
      '{"title":"ok","forkedFrom":{"sessionId":"00000000-0000-4000-8000-000000000000","snapshotId":"s","__proto__":{}}}',
      /forkedFrom\.__proto__: property __proto__ should not exist/,
    ],
  ])('refuses %s like any other unknown key', async (body, why) => {
    const before = await head();
    const res = await api.request('POST', '/api/sessions', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(why);
    expect(await head()).toBe(before);
    // …exactly as it refuses any other unknown key.
    const other = await api.request('POST', '/api/sessions', '{"title":"ok","isAdmin":1}');
    expect(other.body.message).toMatch(/isAdmin: property isAdmin should not exist/);
  });

  it('refuses __proto__ and constructor in other DTO bodies and in settings', async () => {
    const rename = await api.request('PATCH', `/api/sessions/${id}`, '{"title":"x","__proto__":1}');
    expect(rename.status).toBe(400);
    expect(rename.body.message).toMatch(/__proto__ should not exist/);
    const policy = await api.request('PATCH', `/api/sessions/${id}/policy`, '{"constructor":{}}');
    expect(policy.status).toBe(400);
    expect(policy.body.message).toMatch(/constructor should not exist/);
    const settings = await api.request('PATCH', '/api/settings', '{"defaults":{"__proto__":{}}}');
    expect(settings.status).toBe(400);
    expect(settings.body.message).toMatch(/unknown field __proto__ in defaults/);
  });

  it.each([
    [{ title: 'p', provider: 'nonexistent' }, 'provider'],
    [{ title: 'p', provider: 'docker-linux' }, 'provider'],
  ])('refuses the session %j: only the harnesses are providers', async (body, field) => {
    const before = await head();
    const res = await api.request('POST', '/api/sessions', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(new RegExp(`${field}.*claude-code, opencode, scripted`));
    expect(await head()).toBe(before);
  });

  it('takes each provider the box can run', async () => {
    for (const provider of ['claude-code', 'opencode', 'scripted']) {
      const res = await api.request('POST', '/api/sessions', { title: provider, provider });
      expect(res.status).toBe(201);
      expect(res.body.provider).toBe(provider);
    }
  });

  it('refuses an unknown default provider in the settings', async () => {
    const before = await head();
    const res = await api.request('PATCH', '/api/settings', {
      defaults: { provider: 'nonexistent' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/defaults\.provider.*claude-code, opencode, scripted/);
    expect(await head()).toBe(before);
    const ok = await api.request('PATCH', '/api/settings', { defaults: { provider: 'scripted' } });
    expect(ok.status).toBe(200);
    expect(ok.body.settings.defaults.provider).toBe('scripted');
  });
});
