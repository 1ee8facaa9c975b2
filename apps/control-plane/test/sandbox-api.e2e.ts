import { PassThrough } from 'node:stream';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningApp } from './harness';
import { call, makeKey, mcpClient, startSandboxApp } from './sandbox-kit';

/**
 * The proof: a real SDK client over Streamable HTTP with an API key calls every tool
 * and checks each answer's fields against the spec's lists; scopes, revocation on an open
 * connection, another org's sandbox, idempotency under 50 concurrent retries, secrets.
 */
const SANDBOX_FIELDS = [
  'id',
  'name',
  'status',
  'size',
  'cpu',
  'memory_gib',
  'disk_gib',
  'cents_per_hour',
  'idle_timeout_seconds',
  'stop_when_agents_finish',
  'secrets',
  'environment',
  'metadata',
  'cost_cents',
  'created_at',
  'updated_at',
  'stopped_reason',
];
const SECRET = 'sk-test-VALUE-9f8e7d6c5b4a';

let api: RunningApp;
let client: Client;
let logs = '';

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (d: Buffer) => (logs += d.toString()));
  api = await startSandboxApp(stream);
  client = await mcpClient(api, (await makeKey(api)).key);
});
afterAll(async () => {
  for (const s of (await call(client, 'sandbox_list')).body?.sandboxes ?? []) {
    await call(client, 'sandbox_destroy', { sandbox: s.id });
  }
  await client.close();
  await api.close();
});

const expectSandbox = (s: any) =>
  expect(Object.keys(s)).toEqual(expect.arrayContaining(SANDBOX_FIELDS));

describe('every tool over MCP, with the spec fields', () => {
  it('lists exactly the tools of the API', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'agent_conversations',
      'agent_prompt',
      'create_environment',
      'list_environments',
      'sandbox_accessibility_action',
      'sandbox_accessibility_tree',
      'sandbox_create',
      'sandbox_create_token',
      'sandbox_desktop',
      'sandbox_destroy',
      'sandbox_exec',
      'sandbox_fork',
      'sandbox_input',
      'sandbox_list',
      'sandbox_open_url',
      'sandbox_read_file',
      'sandbox_resume',
      'sandbox_screenshot',
      'sandbox_stop',
      'sandbox_update',
      'sandbox_write_file',
      'set_secret',
      'set_secret_products',
    ]);
  });

  it('create, exec, write, read, update, stop, resume, fork, list, destroy', async () => {
    const made = await call(client, 'sandbox_create', {
      name: 'proof',
      size: 'standard',
      metadata: { user: '42' },
    });
    expect(made.isError).toBe(false);
    expectSandbox(made.body);
    expect(made.body).toMatchObject({
      name: 'proof',
      status: 'running',
      size: 'standard',
      cpu: 2,
      memory_gib: 4,
      disk_gib: 20,
      cents_per_hour: 10,
      environment: 'default',
      secrets: [],
      idle_timeout_seconds: 0,
    });
    const ran = await call(client, 'sandbox_exec', {
      sandbox: 'proof',
      command: 'echo out; echo err >&2; pwd; id -u; exit 7',
    });
    expect(ran.body).toEqual({
      exit_code: 7,
      stdout: 'out\n/root\n0\n',
      stderr: 'err\n',
      truncated: false,
    });
    const env = await call(client, 'sandbox_exec', {
      sandbox: made.body.id,
      command: 'echo "$A"',
      env: { A: 'x y' },
      cwd: '/tmp',
    });
    expect(env.body.stdout).toBe('x y\n');
    expect(
      (
        await call(client, 'sandbox_write_file', {
          sandbox: 'proof',
          path: '/root/dir/new/a.txt',
          content: 'héllo',
        })
      ).body,
    ).toEqual({ path: '/root/dir/new/a.txt', size_bytes: 6 });
    expect(
      (await call(client, 'sandbox_read_file', { sandbox: 'proof', path: '/root/dir/new/a.txt' }))
        .body,
    ).toEqual({ path: '/root/dir/new/a.txt', encoding: 'utf-8', content: 'héllo' });
    await call(client, 'sandbox_write_file', {
      sandbox: 'proof',
      path: '/root/bin',
      content_base64: Buffer.from([0xff, 0, 1]).toString('base64'),
    });
    expect(
      (await call(client, 'sandbox_read_file', { sandbox: 'proof', path: '/root/bin' })).body,
    ).toEqual({ path: '/root/bin', encoding: 'base64', content: '/wAB' });
    const updated = await call(client, 'sandbox_update', {
      sandbox: 'proof',
      idle_timeout_seconds: 600,
      metadata: {},
    });
    expect(updated.body).toMatchObject({ idle_timeout_seconds: 600, metadata: {} });
    await call(client, 'sandbox_exec', {
      sandbox: 'proof',
      command: 'sleep 1000 >/dev/null 2>&1 & echo $! > /root/pid',
    });
    const stopped = await call(client, 'sandbox_stop', { sandbox: 'proof' });
    expect(stopped.body).toMatchObject({ status: 'stopped', stopped_reason: 'requested' });
    expect((await call(client, 'sandbox_stop', { sandbox: 'proof' })).body.status).toBe('stopped');
    expect(
      (await call(client, 'sandbox_exec', { sandbox: 'proof', command: 'true' })).body.error,
    ).toBe('not_running');
    const fork = await call(client, 'sandbox_fork', { sandbox: 'proof', name: 'proof-fork' });
    expectSandbox(fork.body);
    expect(fork.body).toMatchObject({
      status: 'running',
      size: 'standard',
      forked_from: made.body.id,
    });
    expect(
      (
        await call(client, 'sandbox_exec', {
          sandbox: 'proof-fork',
          command:
            'cat /root/dir/new/a.txt; kill -0 $(cat /root/pid) 2>/dev/null && echo alive || echo none',
        })
      ).body.stdout,
    ).toBe('héllonone\n');
    expect((await call(client, 'sandbox_resume', { sandbox: 'proof' })).body).toMatchObject({
      status: 'running',
      stopped_reason: null,
    });
    // Stop kept the process: it runs again after resume.
    expect(
      (
        await call(client, 'sandbox_exec', {
          sandbox: 'proof',
          command: 'kill -0 $(cat /root/pid) && echo alive',
        })
      ).body.stdout,
    ).toBe('alive\n');
    const gone = await call(client, 'sandbox_destroy', { sandbox: 'proof-fork' });
    expect(gone.body.status).toBe('deleted');
    const live = (await call(client, 'sandbox_list')).body.sandboxes.map((s: any) => s.name);
    expect(live).toContain('proof');
    expect(live).not.toContain('proof-fork');
    const all = (await call(client, 'sandbox_list', { all: true })).body.sandboxes;
    expect(all.map((s: any) => s.name)).toEqual(expect.arrayContaining(['proof', 'proof-fork']));
    all.forEach(expectSandbox);
    // The name of a deleted sandbox is free again.
    expect((await call(client, 'sandbox_create', { name: 'proof-fork' })).body.status).toBe(
      'running',
    );
  });

  it('lists by metadata, newest first', async () => {
    await call(client, 'sandbox_create', { name: 'meta-a', metadata: { user: '1' } });
    await call(client, 'sandbox_create', { name: 'meta-b', metadata: { user: '1', team: 'x' } });
    const got = (await call(client, 'sandbox_list', { metadata: { user: '1' } })).body.sandboxes;
    expect(got.map((s: any) => s.name)).toEqual(['meta-b', 'meta-a']);
    expect(
      (await call(client, 'sandbox_list', { metadata: { team: 'x' } })).body.sandboxes,
    ).toHaveLength(1);
  });

  it('a retry with the same idempotency_key is the same sandbox, also under 50 concurrent retries', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(client, 'sandbox_create', { idempotency_key: 'job-7' }),
      ),
    );
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(answers[0].body.name).toMatch(/^sb-[0-9a-f]{6}$/);
    const listed = (await call(client, 'sandbox_list')).body.sandboxes.filter((s: any) =>
      ids.has(s.id),
    );
    expect(listed).toHaveLength(1);
  });
});

describe('secrets', () => {
  it('unknown_environment, unknown_secrets, and values never in an answer, event, read model or log', async () => {
    expect((await call(client, 'sandbox_create', { environment: 'nope' })).body.error).toBe(
      'unknown_environment',
    );
    expect((await call(client, 'sandbox_create', { secrets: ['API_TOKEN'] })).body.error).toBe(
      'unknown_secrets',
    );
    expect((await call(client, 'create_environment', { name: 'prod' })).isError).toBe(false);
    const set = await call(client, 'set_secret', {
      environment: 'prod',
      name: 'API_TOKEN',
      value: SECRET,
    });
    expect(JSON.stringify(set.body)).not.toContain(SECRET);
    await call(client, 'set_secret', {
      environment: 'prod',
      name: 'CI_ONLY',
      value: 'ci-secret-value-1',
      products: ['ci'],
    });
    expect(
      (await call(client, 'sandbox_create', { environment: 'prod', secrets: ['CI_ONLY'] })).body
        .error,
    ).toBe('unknown_secrets');
    expect(
      (
        await call(client, 'set_secret_products', {
          environment: 'prod',
          name: 'CI_ONLY',
          products: ['ci', 'sandboxes'],
        })
      ).body.environments,
    ).toContainEqual({
      name: 'prod',
      secrets: expect.arrayContaining([{ name: 'CI_ONLY', products: ['sandboxes', 'ci'] }]),
    });
    const made = await call(client, 'sandbox_create', {
      name: 'secretive',
      environment: 'prod',
      secrets: ['API_TOKEN'],
    });
    expect(made.body).toMatchObject({ secrets: ['API_TOKEN'], environment: 'prod' });
    const echo = await call(client, 'sandbox_exec', {
      sandbox: 'secretive',
      command:
        'echo "$API_TOKEN"; echo "$API_TOKEN" >&2; echo "$API_TOKEN" > /root/s.txt; echo "${CI_ONLY:-unset}"',
    });
    expect(echo.body.stdout).toBe('••••••••\nunset\n');
    expect(echo.body.stderr).toBe('••••••••\n');
    // File reads are not masked (docs/SANDBOXES.md says so).
    expect(
      (await call(client, 'sandbox_read_file', { sandbox: 'secretive', path: '/root/s.txt' })).body
        .content,
    ).toBe(`${SECRET}\n`);
    await call(client, 'sandbox_stop', { sandbox: 'secretive' });
    await call(client, 'sandbox_resume', { sandbox: 'secretive' });
    expect(
      (
        await call(client, 'sandbox_exec', {
          sandbox: 'secretive',
          command: 'test "$API_TOKEN" = ' + SECRET + ' && echo same',
        })
      ).body.stdout,
    ).toBe('same\n');
    const fork = await call(client, 'sandbox_fork', { sandbox: 'secretive' });
    expect(fork.body).toMatchObject({ secrets: ['API_TOKEN'], environment: 'prod' });
    const events = await api.request('GET', '/api/events?limit=500');
    expect(events.status).toBe(200);
    expect(JSON.stringify(events.body)).toContain('SecretSet');
    expect(JSON.stringify(events.body)).not.toContain(SECRET);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(SECRET);
    // Nothing in the data dir holds it in the clear: the event store, read models, the vault.
    for (const file of walk(api.dataDir)) {
      if (file.includes(`${path.sep}sandboxes${path.sep}`)) continue; // the sandbox's own files
      expect({ file, has: fs.readFileSync(file).includes(SECRET) }).toEqual({ file, has: false });
    }
  });
});

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return walk(p);
    return d.isFile() ? [p] : [];
  });
}
