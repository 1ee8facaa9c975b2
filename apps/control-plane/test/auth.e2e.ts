import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WebSocket } from 'ws';
import { TEST_PASSWORD, signIn, startApp, tempDataDir, type RunningApp } from './harness';

const root = path.resolve(__dirname, '../../..');
const none = { authorization: '' };

function setPasswordWithCli(dataDir: string, password: string): Promise<number> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [
        '-r',
        '@swc-node/register',
        path.join(root, 'tools/cli/main.ts'),
        'password',
        '--data',
        dataDir,
      ],
      { cwd: root },
      (error) => resolve(error ? Number(error.code ?? 1) : 0),
    );
    child.stdin?.end(`${password}\n`);
  });
}

/** Opens /api/ui with these headers: 'open', or the HTTP status the handshake was refused with. */
function handshake(url: string, headers: Record<string, string>): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url.replace('http', 'ws') + '/api/ui', { headers });
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => undefined);
  });
}

describe('signing in: the API and the UI socket need a signed-in person', () => {
  let api: RunningApp;
  beforeEach(async () => (api = await startApp()));
  afterEach(async () => {
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('answers 401 with why to a caller that has not signed in, and changes nothing', async () => {
    const refused = await api.request('POST', '/api/sessions', { title: 'Sneaky' }, none);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'UNAUTHENTICATED' });
    expect(refused.body.message).toMatch(/sign in/);
    expect((await api.request('GET', '/api/sessions', undefined, none)).status).toBe(401);
    expect((await api.request('GET', '/api/sessions')).body).toEqual([]);
    expect((await api.request('GET', '/api/health', undefined, none)).status).toBe(200);
  });

  it('signs in with the right password only, by cookie or bearer token, and signs out', async () => {
    const wrong = await api.request(
      'POST',
      '/api/auth/sign-in',
      { username: 'admin', password: 'not-it-at-all' },
      none,
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('wrong user name or password');
    const res = await fetch(`${api.url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: TEST_PASSWORD }),
    });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^sb_session=[\w-]+; Path=\/; HttpOnly; SameSite=Strict/);
    const byCookie = await api.request('GET', '/api/auth/me', undefined, {
      ...none,
      cookie: cookie.split(';')[0],
    });
    expect(byCookie.body).toEqual({ username: 'admin' });
    const bearer = { authorization: `Bearer ${token}` };
    expect((await api.request('GET', '/api/auth/me', undefined, bearer)).status).toBe(200);
    expect((await api.request('POST', '/api/auth/sign-out', undefined, bearer)).status).toBe(204);
    expect((await api.request('GET', '/api/auth/me', undefined, bearer)).status).toBe(401);
    // Other sign-ins go on.
    expect((await api.request('GET', '/api/auth/me')).status).toBe(200);
  });

  it('makes an address wait after five wrong passwords, even for the right one', async () => {
    const attempt = (password: string) =>
      api.request('POST', '/api/auth/sign-in', { username: 'admin', password }, none);
    for (let i = 0; i < 5; i++) expect((await attempt(`guess-${i}-xxxx`)).status).toBe(401);
    const locked = await attempt(TEST_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/try again in \d+ s/);
    // The wait in HTTP's own words too, in whole seconds, as the message says.
    const raw = await fetch(`${api.url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: TEST_PASSWORD }),
    });
    expect(raw.status).toBe(429);
    const retryAfter = raw.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    const body = (await raw.json()) as { message: string };
    expect(body.message).toContain(`try again in ${retryAfter} s`);
  });

  it('counts parallel guesses one by one: five wrong answers at most, then the address waits', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.request(
          'POST',
          '/api/auth/sign-in',
          { username: 'admin', password: `p-${i}-xxxxx` },
          none,
        ),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it("refuses a sign-in from another site's page", async () => {
    const res = await api.request(
      'POST',
      '/api/auth/sign-in',
      { username: 'admin', password: TEST_PASSWORD },
      { ...none, origin: 'http://evil.example' },
    );
    expect(res.status).toBe(403);
    expect(res.body.token).toBeUndefined();
  });

  it('closes an open UI socket when its sign-in is signed out', async () => {
    const token = await signIn(api.url, 'admin', TEST_PASSWORD);
    const ws = new WebSocket(api.url.replace('http', 'ws') + '/api/ui', {
      headers: { authorization: `Bearer ${token}` },
    });
    await new Promise((r) => ws.once('open', r));
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    // Another sign-in's socket stays open.
    const other = new WebSocket(api.url.replace('http', 'ws') + '/api/ui', {
      headers: api.authHeaders,
    });
    await new Promise((r) => other.once('open', r));
    await api.request('POST', '/api/auth/sign-out', undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(await closed).toBe(4401);
    expect(other.readyState).toBe(WebSocket.OPEN);
    other.close();
  });

  it('refuses the UI socket without a sign-in or from another site, and opens it with one', async () => {
    expect(await handshake(api.url, {})).toBe(401);
    expect(await handshake(api.url, { authorization: 'Bearer forged' })).toBe(401);
    expect(await handshake(api.url, { ...api.authHeaders, origin: 'http://evil.example' })).toBe(
      401,
    );
    expect(await handshake(api.url, api.authHeaders)).toBe('open');
  });

  it('records the signed-in person as the actor of what they do', async () => {
    const created = await api.request('POST', '/api/sessions', { title: 'Mine' });
    const events = await api.request('GET', `/api/streams/session-${created.body.id}/events`);
    expect(events.body.events[0].metadata.actor).toEqual({ kind: 'person', id: 'admin' });
  });
});

describe('the local account across starts', () => {
  it('makes up a password at the first start, keeps sign-ins over a restart, and takes a new one from the CLI', async () => {
    const dataDir = tempDataDir();
    let api = await startApp(dataDir, { SESSIONBOXER_ADMIN_PASSWORD: '' });
    const file = path.join(dataDir, 'secrets/initial-password');
    try {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const made = fs.readFileSync(file, 'utf8').trim();
      expect(made).toHaveLength(24);
      expect(api.credentials.password).toBe('');
      const token = await signIn(api.url, 'admin', made);
      // No secret of the account is in the event history.
      const all = JSON.stringify((await api.request('GET', '/api/events?limit=1000')).body);
      expect(all).not.toContain(made);
      await api.close();
      api = await startApp(dataDir, { SESSIONBOXER_ADMIN_PASSWORD: '' });
      const bearer = { authorization: `Bearer ${token}` };
      expect((await api.request('GET', '/api/auth/me', undefined, bearer)).status).toBe(200);
      expect(await setPasswordWithCli(dataDir, 'short')).toBe(1);
      expect(await setPasswordWithCli(dataDir, 'a-new-password-42')).toBe(0);
      expect(fs.existsSync(file)).toBe(false);
      // The running server takes it: old sign-ins end, the old password fails, the new works.
      expect((await api.request('GET', '/api/auth/me', undefined, bearer)).status).toBe(401);
      await expect(signIn(api.url, 'admin', made)).rejects.toThrow(/401/);
      await expect(signIn(api.url, 'admin', 'a-new-password-42')).resolves.toEqual(
        expect.any(String),
      );
    } finally {
      await api.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
