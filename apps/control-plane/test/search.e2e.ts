import * as fs from 'node:fs';
import { waitFor } from './box-kit';
import { startApp, type RunningApp } from './harness';
import { callTool } from './schedule-kit';

/**
 * GET /api/search over the real app (no boxes: a prompt still becomes the transcript's prompt
 * entry, and notify's note is an agent's tool call through the gateway).
 */
describe('GET /api/search', () => {
  let api: RunningApp;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    api = await startApp();
    const create = async (title: string) =>
      (await api.request('POST', '/api/sessions', { title, provider: 'scripted' })).body
        .id as string;
    ids.colony = await create('Penguin colony');
    ids.zoo = await create('Zoo visit');
    ids.old = await create('Old penguin notes');
    ids.gone = await create('Gone penguin');
    for (const [id, text] of [
      [ids.zoo, 'We saw a penguin and a lot of other animals at the zoo today, then lunch'],
      [ids.colony, 'How big is a colony of emperor birds?'],
      [ids.gone, 'penguin facts to forget'],
    ]) {
      expect((await api.request('POST', `/api/sessions/${id}/prompts`, { text })).status).toBe(202);
    }
    await callTool(api, ids.zoo, 'notify', { text: '<img src=x onerror=alert(1)> penguin report' });
    await api.request('POST', `/api/sessions/${ids.old}/archive`);
    await api.request('POST', `/api/sessions/${ids.gone}/stop`, {});
    expect((await api.request('DELETE', `/api/sessions/${ids.gone}`)).status).toBe(204);
    await waitFor('the note indexed', async () => (await search('report')).length === 1);
  });
  afterAll(async () => {
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  const get = (query: string, headers?: Record<string, string>) =>
    api.request('GET', `/api/search?${query}`, undefined, headers);
  const search = async (q: string, extra = '') => {
    const res = await get(`q=${encodeURIComponent(q)}${extra}`);
    expect(res.status).toBe(200);
    return res.body.results as any[];
  };

  it('ranks a title first, then entries, with the matched words marked in the snippet', async () => {
    const results = await search('penguin');
    expect(results.map((r) => [r.sessionId, r.kind])).toEqual([
      [ids.colony, 'title'],
      [ids.zoo, 'note'],
      [ids.zoo, 'prompt'],
    ]);
    expect(results[0]).toMatchObject({ title: 'Penguin colony', archived: false });
    expect(results[0].entryId).toBeUndefined();
    const prompt = results[2];
    expect(prompt).toMatchObject({ title: 'Zoo visit', entryId: expect.any(String) });
    expect(typeof prompt.position).toBe('number');
    expect(prompt.snippet.filter((p: any) => p.match)).toEqual([{ text: 'penguin', match: true }]);
    expect(prompt.snippet.map((p: any) => p.text).join('')).toContain('We saw a penguin and');
    // The HTML-looking note is plain text in the answer; the client shows it as text.
    expect(results[1].snippet.map((p: any) => p.text).join('')).toContain('<img src=x');
  });

  it('matches the last word as a prefix and needs every word', async () => {
    expect((await search('emperor bi')).map((r) => r.sessionId)).toEqual([ids.colony]);
    expect(await search('emperor zoo')).toEqual([]);
    expect((await search('pengu', '&limit=1')).map((r) => r.kind)).toEqual(['title']);
  });

  it('leaves archived sessions out unless asked, and marks them; a deleted one is gone', async () => {
    expect((await search('old')).length).toBe(0);
    const archived = await search('old', '&includeArchived=true');
    expect(archived).toEqual([expect.objectContaining({ sessionId: ids.old, archived: true })]);
    const all = await search('penguin', '&includeArchived=true');
    expect(all.map((r) => r.sessionId)).not.toContain(ids.gone);
    expect(await search('forget', '&includeArchived=true')).toEqual([]);
  });

  it('finds a renamed session by its new title only', async () => {
    await api.request('PATCH', `/api/sessions/${ids.zoo}`, { title: 'Aquarium trip' });
    await waitFor('the rename indexed', async () => (await search('aquarium')).length > 0);
    expect((await search('aquarium')).map((r) => r.kind)).toEqual(['title']);
    expect((await search('zoo')).map((r) => r.kind)).toEqual(['prompt']);
    expect((await search('report'))[0].title).toBe('Aquarium trip');
  });

  it('answers search syntax and odd input as plain words: 200 or a 400, never a 500', async () => {
    for (const q of [
      '"',
      'foo AND',
      'NEAR(',
      'penguin OR',
      '*',
      'title:x',
      '^a',
      "'; DROP",
      '\\',
    ]) {
      const res = await get(`q=${encodeURIComponent(q)}`);
      expect([q, res.status]).toEqual([q, 200]);
      expect(Array.isArray(res.body.results)).toBe(true);
    }
    expect((await search('"penguin')).length).toBeGreaterThan(0);
    expect(await search('NEAR(')).toEqual([]);
  });

  it('says which parameter is wrong', async () => {
    const cases: [string, RegExp][] = [
      ['', /q must not be empty/],
      ['q=', /q must not be empty/],
      ['q=%20%20', /q must not be empty/],
      [`q=${'a'.repeat(201)}`, /q must be at most 200 characters/],
      ['q=a&q=b', /q must be one text/],
      ['q=a&limit=0', /limit must be a whole number from 1 to 50/],
      ['q=a&limit=51', /limit must be a whole number from 1 to 50/],
      ['q=a&limit=two', /limit must be a whole number from 1 to 50/],
      ['q=a&includeArchived=yes', /includeArchived must be one of true, false/],
    ];
    for (const [query, message] of cases) {
      const res = await get(query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body.message).toMatch(message);
    }
  });

  it('is for a signed-in person only', async () => {
    const res = await get('q=penguin', { authorization: '' });
    expect(res.status).toBe(401);
  });
});
