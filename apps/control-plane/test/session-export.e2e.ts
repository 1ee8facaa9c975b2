import * as fs from 'node:fs';
import { BundleVerifier, readPublicKey, type BundleReport } from '@sessionboxer/event-store/chain';
import type { AppConfig } from '../src/config';
import { APP_CONFIG } from '../src/infrastructure/tokens';
import { startApp, type RunningApp } from './harness';

/** The credential, set in Settings, that ends up in the session's history (its title). */
const KEY = 'sk-ant-api03-' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1';

/** GET /api/sessions/:id/export: a session's bundle over HTTP, checked offline. */
describe("admin API: a session's audit bundle", () => {
  let api: RunningApp;
  let id: string;
  let other: string;

  const download = async (query: string) => {
    const res = await fetch(`${api.url}/api/sessions/${id}/export${query}`, {
      headers: api.authHeaders,
    });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const verify = (text: string): BundleReport => {
    const config = api.app.get<AppConfig>(APP_CONFIG);
    const v = new BundleVerifier(readPublicKey(`${config.auditKey}.pub`));
    for (const line of text.trimEnd().split('\n')) if (!v.add(line)) break;
    return v.result();
  };

  beforeAll(async () => {
    api = await startApp();
    const set = await api.request('PUT', '/api/settings/credentials/anthropicApiKey', {
      value: KEY,
    });
    expect(set.status).toBe(200);
    id = (await api.request('POST', '/api/sessions', { title: 'Exported' })).body.id as string;
    other = (await api.request('POST', '/api/sessions', { title: 'Someone else' })).body.id;
    await api.request('PATCH', `/api/sessions/${id}`, { title: `deploy with ${KEY}` });
    await api.request('PATCH', `/api/sessions/${other}`, { title: 'Not in the bundle' });
  });
  afterAll(async () => {
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('answers JSON lines that verify with the public key; redacted, without the credential', async () => {
    const whole = await download('');
    expect(whole.status).toBe(200);
    expect(whole.type).toMatch(/application\/x-ndjson/);
    expect(whole.text).toContain(KEY);
    expect(verify(whole.text)).toMatchObject({ problem: null, bundleProblem: null });

    const redacted = await download('?redact=true');
    expect(redacted.status).toBe(200);
    expect(redacted.text).not.toContain(KEY);
    expect(redacted.text).not.toContain('Not in the bundle');
    const r = verify(redacted.text);
    expect(r).toMatchObject({ problem: null, bundleProblem: null, scopeSigned: true });
    expect(r.scope).toEqual({ session: id, family: false, redacted: true });
    expect(r.hiddenValues).toBeGreaterThan(0);
  });

  it('refuses a flag it cannot read and a session that does not exist, and strangers', async () => {
    const bad = await download('?redact=yes');
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/redact must be true or false/);
    const none = await fetch(`${api.url}/api/sessions/no-such/export`, {
      headers: api.authHeaders,
    });
    expect(none.status).toBe(404);
    const stranger = await fetch(`${api.url}/api/sessions/${id}/export`);
    expect(stranger.status).toBe(401);
  });
});
