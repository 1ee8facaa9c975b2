import { apiKeyStream } from '@sessionboxer/domain/api-key';
import type { EventStore } from '@sessionboxer/event-store';
import { keys as stateKeys } from '../src/api-keys/cli-login-request';
import { Clock } from '../src/infrastructure/clock';
import { SHARED_STATE, type SharedState } from '../src/infrastructure/shared-state';
import { EVENT_STORE } from '../src/infrastructure/tokens';
import { startApp, type RunningApp } from './harness';

/**
 * `sessionboxer login` over HTTP (the CLI and the page are proven in apps/web/test/cli-login.e2e.ts):
 * a request is pending until a person decides; approved, one poll gets a new key with both
 * scopes (made as the person, ApiKeyCreated), every other poll and the page then find it gone;
 * denied gives no key; a decision is final; requests expire after 10 minutes (the Clock seam).
 */
let api: RunningApp;
let offset = 0;

beforeAll(async () => {
  api = await startApp();
  const clock = api.app.get(Clock);
  const real = clock.now.bind(clock);
  clock.now = () => new Date(real().getTime() + offset);
});
afterAll(() => api.close());

const anonymous = async (method: string, route: string, body?: unknown) => {
  const res = await fetch(api.url + route, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const start = async () => (await anonymous('POST', '/api/cli-login', { client: 'laptop' })).body;
const poll = async (token: string) =>
  (await anonymous('POST', '/api/cli-login/poll', { poll_token: token })).body;

it('hands an approved request its key once; the key has both scopes and works', async () => {
  const login = await start();
  expect(login).toMatchObject({
    user_code: expect.stringMatching(/^[B-Z2-9]{4}-[B-Z2-9]{4}$/),
    verification_url: `${api.url}/cli-login/${login.request_id}`,
    interval_seconds: 1,
  });
  expect(Date.parse(login.expires_at) - Date.now()).toBeGreaterThan(9 * 60_000);
  expect(await poll(login.poll_token)).toEqual({ status: 'pending' });

  // The page needs a signed-in person; it shows the org, the scopes and the code.
  expect((await anonymous('GET', `/api/cli-login/${login.request_id}`)).status).toBe(401);
  expect((await anonymous('POST', `/api/cli-login/${login.request_id}/approve`)).status).toBe(401);
  const view = await api.request('GET', `/api/cli-login/${login.request_id}`);
  expect(view.body).toMatchObject({
    user_code: login.user_code,
    org_name: expect.any(String),
    scopes: ['sandboxes:read', 'sandboxes:write'],
    client: 'laptop',
    status: 'pending',
  });
  expect(JSON.stringify(view.body)).not.toContain(login.poll_token);
  const approved = await api.request('POST', `/api/cli-login/${login.request_id}/approve`);
  expect(approved).toMatchObject({ status: 200, body: { status: 'approved' } });
  expect((await api.request('POST', `/api/cli-login/${login.request_id}/deny`)).status).toBe(409);

  // Concurrent polls: exactly one gets the key.
  const polls = await Promise.all(Array.from({ length: 8 }, () => poll(login.poll_token)));
  const got = polls.filter((p) => p.status === 'approved');
  expect(got).toHaveLength(1);
  expect(polls.filter((p) => p.status === 'expired')).toHaveLength(7);
  const { key, key_id } = got[0];
  expect(got[0].scopes).toEqual(['sandboxes:read', 'sandboxes:write']);
  expect(await poll(login.poll_token)).toEqual({ status: 'expired' });
  expect((await api.request('GET', `/api/cli-login/${login.request_id}`)).status).toBe(404);

  const list = await anonymous('POST', '/v1/sandbox_list', {});
  expect(list.status).toBe(401);
  const res = await fetch(`${api.url}/v1/sandbox_list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: '{}',
  });
  expect(res.status).toBe(200);
  // Made as the person who approved, hashed as every key.
  const events = await api.app.get<EventStore>(EVENT_STORE).readStream(apiKeyStream(key_id));
  expect(events.map((e) => e.type)).toEqual(['ApiKeyCreated']);
  expect(events[0].metadata.actor).toEqual({ kind: 'person', id: api.credentials.username });
  expect(JSON.stringify(events)).not.toContain(key);
  const keys = (await api.request('GET', '/api/orgs/default/api-keys')).body.apiKeys;
  expect(keys.find((k: any) => k.keyId === key_id).name).toBe('sessionboxer login (laptop)');
});

it('a key another poll (another instance) already took is not made twice', async () => {
  const count = async () =>
    (await api.request('GET', '/api/orgs/default/api-keys')).body.apiKeys.length as number;
  const before = await count();
  const login = await start();
  await api.request('POST', `/api/cli-login/${login.request_id}/approve`);
  // The other poll's claim landed between this poll's read of the decision and its own claim.
  const shared = api.app.get<SharedState>(SHARED_STATE);
  expect(await shared.claim(stateKeys.handedOut(login.request_id), '1', 60_000)).toBe(true);
  expect(await poll(login.poll_token)).toEqual({ status: 'expired' });
  expect(await count()).toBe(before);
});

it('a denied request gets no key, and neither does its next poll', async () => {
  const before = (await api.request('GET', '/api/orgs/default/api-keys')).body.apiKeys.length;
  const login = await start();
  expect((await api.request('POST', `/api/cli-login/${login.request_id}/deny`)).body).toEqual({
    request_id: login.request_id,
    status: 'denied',
  });
  expect((await api.request('POST', `/api/cli-login/${login.request_id}/approve`)).status).toBe(
    409,
  );
  expect(await poll(login.poll_token)).toEqual({ status: 'denied' });
  expect(await poll(login.poll_token)).toEqual({ status: 'expired' });
  expect((await api.request('GET', '/api/orgs/default/api-keys')).body.apiKeys).toHaveLength(
    before,
  );
});

it('expires after 10 minutes: the page finds nothing and the poll says expired', async () => {
  const login = await start();
  offset = 10 * 60_000 + 1000;
  try {
    const view = await api.request('GET', `/api/cli-login/${login.request_id}`);
    expect(view.status).toBe(404);
    expect(view.body.message).toMatch(/expired, was used, or never existed/);
    expect((await api.request('POST', `/api/cli-login/${login.request_id}/approve`)).status).toBe(
      404,
    );
    expect(await poll(login.poll_token)).toEqual({ status: 'expired' });
  } finally {
    offset = 0;
  }
});

it('works across instances: started and polled on one, approved on another', async () => {
  const other = await startApp(api.dataDir, { SESSIONBOXER_INSTANCE: 'cp-login-b' });
  try {
    const started = await fetch(`${other.url}/api/cli-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const login = (await started.json()) as any;
    expect((await api.request('POST', `/api/cli-login/${login.request_id}/approve`)).status).toBe(
      200,
    );
    const res = await fetch(`${other.url}/api/cli-login/poll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ poll_token: login.poll_token }),
    });
    const got = (await res.json()) as any;
    expect(got.status).toBe('approved');
    const list = await fetch(`${api.url}/v1/sandbox_list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${got.key}` },
      body: '{}',
    });
    expect(list.status).toBe(200);
  } finally {
    await other.close();
  }
});

it('refuses bad input by name and changes nothing', async () => {
  const bad = await anonymous('POST', '/api/cli-login/poll', { poll_token: 'nope' });
  expect(bad.status).toBe(400);
  expect(bad.body.message).toMatch(/poll_token/);
  const org = await anonymous('POST', '/api/cli-login', { org: 'no-such-org' });
  expect(org.status).toBe(404);
  expect(org.body.message).toMatch(/no org no-such-org/);
  expect((await api.request('GET', '/api/cli-login/not-a-uuid')).status).toBe(404);
});
