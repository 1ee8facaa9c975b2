import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { EventStore } from '@sessionboxer/event-store';
import { Clock } from '../src/infrastructure/clock';
import { EVENT_STORE } from '../src/infrastructure/tokens';
import { SANDBOX_VIEW_TOKENS, type SandboxViewTokens } from '../src/sandboxes/watch/sandbox-viewer';
import type { RunningApp } from './harness';
import { shot } from './sandbox-desktop-kit';
import { call, makeKey, mcpClient, runCli, startSandboxApp } from './sandbox-kit';

/**
 * sandbox_create_token over a real SDK client (Streamable HTTP) and REST, against one real
 * desktop (bubblewrap, Xvfb, Chromium): shown once and never recorded, view and control,
 * nothing but its sandbox's desktop, expiry (the Clock seam), a revoked key, a deleted
 * sandbox, sandbox_has_secrets, Origins, and each bad parameter named.
 */
jest.setTimeout(120_000);

let api: RunningApp;
let client: Client;
let key: string;
let logs = '';
let deskId: string;
let offset = 0;
const desk = { sandbox: 'tokdesk' };
const opened: Client[] = [];

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (d: Buffer) => (logs += d.toString()));
  api = await startSandboxApp(stream);
  const clock = api.app.get(Clock);
  const real = clock.now.bind(clock);
  clock.now = () => new Date(real().getTime() + offset);
  key = (await makeKey(api)).key;
  client = await mcpClient(api, key);
  deskId = (await ok('sandbox_create', { name: 'tokdesk' })).id;
  await ok('sandbox_create', { name: 'tokother' });
  expect(await ok('sandbox_desktop', desk)).toMatchObject({ running: true });
}, 180_000);
afterAll(async () => {
  for (const c of opened) await c.close().catch(() => undefined);
  for (const s of (await call(client, 'sandbox_list')).body?.sandboxes ?? []) {
    await call(client, 'sandbox_destroy', { sandbox: s.id });
  }
  await client.close();
  await api.close();
});

async function ok(name: string, args: Record<string, unknown>, as = client) {
  const r = await call(as, name, args);
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
  return r.body;
}

async function mint(args: Record<string, unknown> = {}, as = client): Promise<string> {
  return (await ok('sandbox_create_token', { ...desk, ...args }, as)).token as string;
}

async function tokenClient(token: string): Promise<Client> {
  const c = await mcpClient(api, token);
  opened.push(c);
  return c;
}

/** A raw JSON-RPC request to /mcp, with headers of our choosing (Origin). */
function rpc(token: string, method: string, params: unknown, headers: Record<string, string> = {}) {
  return fetch(`${api.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

const rest = (token: string, tool: string, body: unknown, headers: Record<string, string> = {}) =>
  api.request('POST', `/v1/${tool}`, body, { authorization: `Bearer ${token}`, ...headers });

const allEvents = async () => api.app.get<EventStore>(EVENT_STORE).readAll();

describe('create', () => {
  it('answers token, sandbox, abilities, origins, expires_at once; only a hash is recorded', async () => {
    const before = Date.now();
    const made = await ok('sandbox_create_token', desk);
    expect(Object.keys(made).sort()).toEqual([
      'abilities',
      'expires_at',
      'origins',
      'sandbox',
      'token',
    ]);
    expect(made).toMatchObject({ sandbox: deskId, abilities: ['control'], origins: [] });
    expect(made.token).toMatch(/^sbt_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(made.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 900_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 900_000 + 1000);
    // sbt_ + 32 hex + _: the secret (base64url, which may hold _ too) is the rest.
    const secret = (made.token as string).slice(37);
    const events = await allEvents();
    const text = JSON.stringify(events);
    expect(text).not.toContain(made.token);
    expect(text).not.toContain(secret);
    expect(logs).not.toContain(secret);
    const created = events.filter((e) => e.type === 'SandboxTokenCreated').at(-1)!;
    expect(created.data).toMatchObject({
      sandboxId: deskId,
      abilities: ['control'],
      origins: [],
      expiresAt: made.expires_at,
      hash: createHash('sha256').update(secret).digest('hex'),
    });
    const withOrigins = await ok('sandbox_create_token', {
      sandbox: deskId,
      abilities: ['view'],
      expires_in_seconds: 60,
      origins: ['https://app.example.com', 'http://127.0.0.1:5173'],
    });
    expect(withOrigins).toMatchObject({
      abilities: ['view'],
      origins: ['https://app.example.com', 'http://127.0.0.1:5173'],
    });
  });

  it('names each bad parameter', async () => {
    const bad: [Record<string, unknown>, string, RegExp][] = [
      [{ expires_in_seconds: 59 }, 'expires_in_seconds', /60 to 3600 \(got 59\)/],
      [{ expires_in_seconds: 3601 }, 'expires_in_seconds', /60 to 3600 \(got 3601\)/],
      [
        { origins: Array.from({ length: 11 }, (_, i) => `https://a${i}.example.com`) },
        'origins',
        /at most 10 origins/,
      ],
      [{ origins: ['https://app.example.com/page'] }, 'origins', /origins\[0\].*no path/],
      [{ abilities: ['view', 'control'] }, 'abilities', /\["view"\] or \["control"\]/],
      [{ abilities: ['admin'] }, 'abilities', /\(got \["admin"\]\)/],
    ];
    for (const [args, field, message] of bad) {
      const r = await call(client, 'sandbox_create_token', { ...desk, ...args });
      expect([field, r.isError, r.body.error, r.body.details?.field]).toEqual([
        field,
        true,
        'invalid_argument',
        field,
      ]);
      expect(r.body.message).toMatch(message);
    }
    const missing = await call(client, 'sandbox_create_token', { sandbox: 'no-such' });
    expect(missing.body.error).toBe('not_found');
    const reader = await mcpClient(api, (await makeKey(api, ['sandboxes:read'])).key);
    expect((await call(reader, 'sandbox_create_token', desk)).body.error).toBe('forbidden');
    await reader.close();
  });

  it('the CLI: sandbox token prints the answer once; a bad value is named', async () => {
    const made = await runCli(
      api.url,
      key,
      'sandbox',
      'token',
      'tokdesk',
      '--ability',
      'view',
      '--expires-in',
      '120',
      '--origin',
      'https://app.example.com',
    );
    expect(made.code).toBe(0);
    const body = JSON.parse(made.stdout);
    expect(body).toMatchObject({
      sandbox: deskId,
      abilities: ['view'],
      origins: ['https://app.example.com'],
    });
    const r = await rest(body.token, 'sandbox_desktop', { ...desk, action: 'status' });
    expect([r.status, r.body.running]).toEqual([200, true]);
    const bad = await runCli(api.url, key, 'sandbox', 'token', 'tokdesk', '--expires-in', '59');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/sandbox_create_token: invalid_argument: expires_in_seconds/);
  });

  it('a sandbox with secrets is refused with sandbox_has_secrets', async () => {
    await ok('set_secret', { name: 'TOK_SECRET', value: 'tok-secret-value-1' });
    await ok('sandbox_create', { name: 'toksecret', secrets: ['TOK_SECRET'] });
    const r = await call(client, 'sandbox_create_token', { sandbox: 'toksecret' });
    expect([r.isError, r.body.error]).toEqual([true, 'sandbox_has_secrets']);
    expect(r.body.message).toMatch(/created with secrets/);
    await ok('sandbox_destroy', { sandbox: 'toksecret' });
  });
});

describe('what a token reaches', () => {
  it('view: lists and takes screenshots and the desktop status, is refused input', async () => {
    const view = await tokenClient(await mint({ abilities: ['view'] }));
    const { tools } = await view.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'sandbox_accessibility_tree',
      'sandbox_desktop',
      'sandbox_screenshot',
    ]);
    const s = await shot(view, desk);
    expect(s.size).toEqual({ width: 1280, height: 800 });
    expect(await ok('sandbox_desktop', { ...desk, action: 'status' }, view)).toMatchObject({
      running: true,
    });
    const tree = await call(view, 'sandbox_accessibility_tree', { ...desk, depth: 3 });
    expect([tree.isError, Object.keys(tree.body)]).toEqual([
      false,
      expect.arrayContaining(['apps']),
    ]);
    const act = await call(view, 'sandbox_accessibility_action', {
      ...desk,
      ref: 'n1',
      action: 'read',
    });
    expect([act.isError, act.body.error]).toEqual([true, 'forbidden']);
    const input = await call(view, 'sandbox_input', { ...desk, action: 'cursor' });
    expect([input.isError, input.body.error]).toEqual([true, 'forbidden']);
    expect(input.body.message).toMatch(/may only view.*sandbox_input needs .*\["control"\]/);
    const stop = await call(view, 'sandbox_desktop', { ...desk, action: 'stop' });
    expect([stop.body.error, stop.body.message]).toEqual([
      'forbidden',
      expect.stringMatching(/sandbox_desktop stop needs/),
    ]);
    expect(await ok('sandbox_desktop', { ...desk, action: 'status' })).toMatchObject({
      running: true,
    });
  });

  it('control: sends input, by name or id', async () => {
    const control = await tokenClient(await mint());
    expect((await control.listTools()).tools.map((t) => t.name).sort()).toEqual([
      'sandbox_accessibility_action',
      'sandbox_accessibility_tree',
      'sandbox_desktop',
      'sandbox_input',
      'sandbox_open_url',
      'sandbox_screenshot',
    ]);
    expect(await ok('sandbox_input', { ...desk, action: 'move', x: 321, y: 123 }, control)).toEqual(
      { done: 'move' },
    );
    expect(await ok('sandbox_input', { sandbox: deskId, action: 'cursor' }, control)).toEqual({
      x: 321,
      y: 123,
    });
    // Reached (not forbidden): a ref never read is the tool's own refusal.
    const act = await call(control, 'sandbox_accessibility_action', {
      ...desk,
      ref: 'n999999',
      action: 'read',
    });
    expect([act.isError, act.body.error === 'forbidden']).toEqual([true, false]);
  });

  it("never exec, files, stop, destroy, agents, list, create, or another sandbox's desktop", async () => {
    const token = await mint();
    const control = await tokenClient(token);
    const refused: [string, Record<string, unknown>][] = [
      ['sandbox_exec', { ...desk, command: 'echo hi' }],
      ['sandbox_read_file', { ...desk, path: '/etc/hostname' }],
      ['sandbox_write_file', { ...desk, path: '/root/x', content: 'x' }],
      ['sandbox_stop', desk],
      ['sandbox_destroy', desk],
      ['agent_prompt', { ...desk, prompt: 'hi' }],
      ['sandbox_list', {}],
      ['sandbox_create', {}],
      ['sandbox_create_token', desk],
      ['sandbox_screenshot', { sandbox: 'tokother' }],
      ['sandbox_input', { sandbox: 'tokother', action: 'cursor' }],
    ];
    for (const [tool, args] of refused) {
      const r = await call(control, tool, args);
      expect([tool, r.isError, r.body.error]).toEqual([tool, true, 'forbidden']);
      expect(r.body.message).toMatch(/a sandbox token reaches only its (own )?sandbox's desktop/);
      const viaRest = await rest(token, tool, args);
      expect([tool, viaRest.status, viaRest.body.error]).toEqual([tool, 403, 'forbidden']);
    }
    const list = await ok('sandbox_list', {});
    expect(list.sandboxes.map((s: any) => [s.name, s.status]).sort()).toEqual([
      ['tokdesk', 'running'],
      ['tokother', 'running'],
    ]);
  });

  it('REST takes the token for its desktop tools', async () => {
    const token = await mint({ abilities: ['view'] });
    const r = await rest(token, 'sandbox_desktop', { ...desk, action: 'status' });
    expect([r.status, r.body.running]).toEqual([200, true]);
    expect((await rest(token, 'sandbox_input', { ...desk, action: 'cursor' })).status).toBe(403);
  });

  it('records the first use per entry point and ability, not every call', async () => {
    const token = await mint();
    const c = await tokenClient(token);
    for (let i = 0; i < 3; i++) await ok('sandbox_desktop', { ...desk, action: 'status' }, c);
    await ok('sandbox_input', { ...desk, action: 'cursor' }, c);
    await rest(token, 'sandbox_desktop', { ...desk, action: 'status' });
    const tokenId = (await allEvents()).filter((e) => e.type === 'SandboxTokenCreated').at(-1)!
      .data as { tokenId: string };
    const used = (await allEvents())
      .filter((e) => e.type === 'SandboxTokenUsed')
      .map((e) => e.data as { tokenId: string; via: string; ability: string; tool: string })
      .filter((d) => d.tokenId === tokenId.tokenId)
      .map((d) => `${d.via}:${d.ability}:${d.tool}`);
    expect(used).toEqual([
      'mcp:view:sandbox_desktop',
      'mcp:control:sandbox_input',
      'rest:view:sandbox_desktop',
    ]);
  });
});

describe('when a token stops working', () => {
  const status = (token: string, headers: Record<string, string> = {}) =>
    rpc(
      token,
      'tools/call',
      { name: 'sandbox_desktop', arguments: { ...desk, action: 'status' } },
      headers,
    );

  it('expires: at expires_at it is refused (the clock moved on)', async () => {
    const token = await mint({ expires_in_seconds: 60 });
    expect((await status(token)).status).toBe(200);
    offset = 59_000;
    expect((await status(token)).status).toBe(200);
    offset = 61_000;
    const late = await status(token);
    expect(late.status).toBe(401);
    expect(JSON.stringify(await late.json())).toMatch(/the token expired at/);
    expect((await rest(token, 'sandbox_screenshot', desk)).body.details).toEqual({
      reason: 'expired',
    });
    offset = 0;
  });

  it('when the key that minted it is revoked, at its next call on an open client', async () => {
    const { key, keyId } = await makeKey(api);
    const minter = await mcpClient(api, key);
    const c = await tokenClient(await mint({}, minter));
    expect(await ok('sandbox_desktop', { ...desk, action: 'status' }, c)).toMatchObject({
      running: true,
    });
    const del = await api.request(
      'DELETE',
      `/api/orgs/00000000-0000-4000-8000-000000000001/api-keys/${keyId}`,
    );
    expect(del.status).toBe(204);
    await expect(call(c, 'sandbox_desktop', { ...desk, action: 'status' })).rejects.toThrow(
      /revoked/,
    );
    await minter.close().catch(() => undefined);
  });

  it('when its sandbox is deleted', async () => {
    await ok('sandbox_create', { name: 'tokgone' });
    const token = await mint({ sandbox: 'tokgone', abilities: ['view'] });
    const args = { sandbox: 'tokgone', action: 'status' };
    expect((await rest(token, 'sandbox_desktop', args)).body).toEqual({ running: false });
    await ok('sandbox_destroy', { sandbox: 'tokgone' });
    const r = await rest(token, 'sandbox_desktop', args);
    expect([r.status, r.body.details]).toEqual([401, { reason: 'sandbox_deleted' }]);
  });

  it('a wrong secret or a made-up token is refused like no token', async () => {
    const token = await mint();
    expect((await status(`${token.slice(0, -4)}AAAA`)).status).toBe(401);
    expect((await status(`sbt_${'0'.repeat(32)}_${'A'.repeat(43)}`)).status).toBe(401);
    expect((await status(token)).status).toBe(200);
  });

  it("a browser's Origin: only one of the token's origins; no Origin works", async () => {
    const listed = await mint({ origins: ['https://app.example.com'] });
    const foreign = await status(listed, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.stringify(await foreign.json())).toMatch(/allows only https:\/\/app\.example\.com/);
    const page = await status(listed, { origin: 'https://app.example.com' });
    expect(page.status).toBe(200);
    expect(page.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect((await status(listed)).status).toBe(200);
    const viaRest = await rest(listed, 'sandbox_screenshot', desk, {
      origin: 'https://evil.example',
    });
    expect([viaRest.status, viaRest.body.details]).toEqual([403, { reason: 'origin' }]);
    // Without origins, every browser page is refused, the installation's own too.
    const none = await mint();
    expect((await status(none, { origin: 'https://app.example.com' })).status).toBe(403);
    expect((await status(none, { origin: api.url })).status).toBe(403);
    expect((await status(none)).status).toBe(200);
    // A browser's preflight carries no token: it is answered, the request after it is checked.
    const pre = await fetch(`${api.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    const restPre = await fetch(`${api.url}/v1/sandbox_screenshot`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect([restPre.status, restPre.headers.get('access-control-allow-origin')]).toEqual([
      204,
      'https://app.example.com',
    ]);
    const restPage = await fetch(`${api.url}/v1/sandbox_desktop`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${listed}`,
        origin: 'https://app.example.com',
      },
      body: JSON.stringify({ ...desk, action: 'status' }),
    });
    expect([restPage.status, restPage.headers.get('access-control-allow-origin')]).toEqual([
      200,
      'https://app.example.com',
    ]);
  });

  it('the watch page: its own Origin counts as none, another must be listed; a watch is recorded', async () => {
    const seam = api.app.get<SandboxViewTokens>(SANDBOX_VIEW_TOKENS);
    const token = await mint({ abilities: ['view'] });
    expect(await seam.authenticate(token, api.url)).toMatchObject({
      sandboxId: deskId,
      abilities: ['view'],
    });
    expect(await seam.authenticate(token, undefined)).toMatchObject({ sandboxId: deskId });
    expect(await seam.authenticate(token, 'https://evil.example')).toBeNull();
    const listed = await mint({ origins: ['https://app.example.com'] });
    expect(await seam.authenticate(listed, 'https://app.example.com')).toMatchObject({
      abilities: ['control'],
    });
    expect(await seam.authenticate(`${token.slice(0, -4)}AAAA`, undefined)).toBeNull();
    const tokenId = ((await seam.authenticate(token, undefined)) as { tokenId: string }).tokenId;
    const watched = (await allEvents()).filter(
      (e) => e.type === 'SandboxTokenUsed' && (e.data as { tokenId: string }).tokenId === tokenId,
    );
    expect(watched.map((e) => e.data)).toEqual([
      expect.objectContaining({ via: 'watch', ability: 'view', tool: 'watch' }),
    ]);
  });
});
