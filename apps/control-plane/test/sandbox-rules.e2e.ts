import * as http from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningApp } from './harness';
import { call, makeKey, mcpClient, startSandboxApp } from './sandbox-kit';

/** Scopes, revocation, orgs, Origin, REST, and one test per parameter rule of the spec. */
let api: RunningApp;
let client: Client;

beforeAll(async () => {
  api = await startSandboxApp();
  client = await mcpClient(api, (await makeKey(api)).key);
  await call(client, 'sandbox_create', { name: 'rules' });
});
afterAll(async () => {
  for (const s of (await call(client, 'sandbox_list')).body?.sandboxes ?? []) {
    await call(client, 'sandbox_destroy', { sandbox: s.id });
  }
  await client.close();
  await api.close();
});

/** fetch cannot set Host: a raw request does, for the SDK's host validation. */
function statusWithHost(url: string, key: string, host: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/mcp`,
      {
        method: 'POST',
        headers: {
          host,
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const names = async () =>
  ((await call(client, 'sandbox_list', { all: true })).body.sandboxes as { name: string }[]).map(
    (s) => s.name,
  );

describe('keys and orgs', () => {
  it('a read-only key lists but is refused every write tool', async () => {
    const reader = await mcpClient(api, (await makeKey(api, ['sandboxes:read'])).key);
    expect((await call(reader, 'sandbox_list')).isError).toBe(false);
    const sb = { sandbox: 'rules' };
    const writes: [string, Record<string, unknown>][] = [
      ['sandbox_create', {}],
      ['sandbox_update', { ...sb, metadata: {} }],
      ['sandbox_stop', sb],
      ['sandbox_resume', sb],
      ['sandbox_fork', sb],
      ['sandbox_destroy', sb],
      ['sandbox_exec', { ...sb, command: 'true' }],
      ['sandbox_write_file', { ...sb, path: '/root/x', content: 'x' }],
      ['create_environment', { name: 'x' }],
      ['set_secret', { name: 'X', value: 'v' }],
      ['set_secret_products', { name: 'X', products: [] }],
    ];
    for (const [tool, args] of writes) {
      const r = await call(reader, tool, args);
      expect({ tool, error: r.body.error }).toEqual({ tool, error: 'forbidden' });
    }
    expect((await call(client, 'sandbox_list')).body.sandboxes.map((s: any) => s.status)).toEqual([
      'running',
    ]);
    await reader.close();
  });

  it('a key revoked while its client is connected is refused at the next call', async () => {
    const { key, keyId } = await makeKey(api);
    const open = await mcpClient(api, key);
    expect((await call(open, 'sandbox_list')).isError).toBe(false);
    const del = await api.request(
      'DELETE',
      `/api/orgs/00000000-0000-4000-8000-000000000001/api-keys/${keyId}`,
    );
    expect(del.status).toBe(204);
    await expect(call(open, 'sandbox_list')).rejects.toThrow(/an API key is needed/);
    await open.close().catch(() => undefined);
  });

  it("another org's sandbox answers exactly like a missing one", async () => {
    const org = await api.request('POST', '/api/orgs', { name: 'Other' });
    const other = await mcpClient(api, (await makeKey(api, undefined, org.body.orgId)).key);
    const id = (await call(client, 'sandbox_list')).body.sandboxes[0].id;
    const theirs = await call(other, 'sandbox_exec', { sandbox: id, command: 'true' });
    const missing = await call(other, 'sandbox_exec', {
      sandbox: '00000000-0000-4000-8000-0000000000ff',
      command: 'true',
    });
    expect(theirs.body.error).toBe('not_found');
    expect(theirs.body.message.replace(id, 'X')).toBe(
      missing.body.message.replace('00000000-0000-4000-8000-0000000000ff', 'X'),
    );
    expect((await call(other, 'sandbox_list', { all: true })).body.sandboxes).toEqual([]);
    await other.close();
  });

  it('no key, a wrong key or a foreign Origin is refused before any tool', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer sbk_0000_nope' })).status).toBe(401);
    const { key } = await makeKey(api);
    expect(
      (await post({ authorization: `Bearer ${key}`, origin: 'https://evil.example' })).status,
    ).toBe(403);
    expect(await statusWithHost(api.url, key, 'evil.example')).toBe(403);
    expect((await post({ authorization: `Bearer ${key}` })).status).toBe(200);
  });

  it('REST under /v1 answers the same names and shapes, and its OpenAPI lists every tool', async () => {
    const { key } = await makeKey(api);
    const rest = (tool: string, body: unknown) =>
      api.request('POST', `/v1/${tool}`, body, { authorization: `Bearer ${key}` });
    const ran = await rest('sandbox_exec', { sandbox: 'rules', command: 'echo rest' });
    expect(ran).toEqual({
      status: 200,
      body: { exit_code: 0, stdout: 'rest\n', stderr: '', truncated: false },
    });
    expect(await rest('sandbox_exec', { sandbox: 'nope', command: 'true' })).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
    expect((await rest('sandbox_list', {})).body.sandboxes[0].name).toBe('rules');
    const doc = await api.request('GET', '/api/v1/openapi.json', undefined, { authorization: '' });
    expect(Object.keys(doc.body.paths)).toContain('/v1/sandbox_create');
    expect(
      doc.body.paths['/v1/sandbox_exec'].post.requestBody.content['application/json'].schema
        .required,
    ).toEqual(['sandbox', 'command']);
  });
});

describe('parameter rules: refused with the spec code or a message naming the parameter, nothing changed', () => {
  it.each([
    ['a name with upper case', { name: 'Bad' }, /name must be/],
    ['a name already live', { name: 'rules' }, /already named rules/],
    ['an unknown size', { size: 'huge' }, /size/],
    ['an idle timeout of 30', { idle_timeout_seconds: 30 }, /idle_timeout_seconds must be 0/],
    ['an idle timeout past 7 days', { idle_timeout_seconds: 604801 }, /idle_timeout_seconds/],
    [
      '17 metadata keys',
      { metadata: Object.fromEntries([...Array(17).keys()].map((i) => [`k${i}`, 'v'])) },
      /at most 16 keys/,
    ],
    ['a metadata key with upper case', { metadata: { User: '1' } }, /User/],
    ['a metadata value of 257 characters', { metadata: { u: 'x'.repeat(257) } }, /metadata.u/],
    ['an unknown parameter', { cpus: 2 }, /cpus/],
  ])('sandbox_create refuses %s', async (_c, args, why) => {
    const before = await names();
    const r = await call(client, 'sandbox_create', args);
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.body)).toMatch(why);
    expect(await names()).toEqual(before);
  });

  it('sandbox_update needs one of its three and keeps its limits', async () => {
    expect((await call(client, 'sandbox_update', { sandbox: 'rules' })).body.message).toMatch(
      /at least one/,
    );
    expect(
      JSON.stringify(
        (await call(client, 'sandbox_update', { sandbox: 'rules', idle_timeout_seconds: 59 })).body,
      ),
    ).toMatch(/idle_timeout_seconds/);
  });

  it.each([0, 601])('sandbox_exec refuses timeout_seconds %s', async (t) => {
    const r = await call(client, 'sandbox_exec', {
      sandbox: 'rules',
      command: 'true',
      timeout_seconds: t,
    });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.body)).toMatch(/timeout_seconds/);
  });

  it('a command past timeout_seconds is killed with its process group and answered as a timeout', async () => {
    const r = await call(client, 'sandbox_exec', {
      sandbox: 'rules',
      command: 'sleep 300 & sleep 300; echo never',
      timeout_seconds: 1,
    });
    expect(r.body.error).toBe('timeout');
    expect(r.body.message).toMatch(/timeout_seconds \(1\)/);
    const ps = await call(client, 'sandbox_exec', {
      sandbox: 'rules',
      command: 'ps -eo args | grep -c "^sleep 300" || true',
    });
    expect(ps.body.stdout).toBe('0\n');
  });

  it('stdout and stderr are each cut at 1 MB, with truncated', async () => {
    const r = await call(client, 'sandbox_exec', {
      sandbox: 'rules',
      command: 'head -c 1100000 /dev/zero | tr "\\0" a; head -c 10 /dev/zero | tr "\\0" b >&2',
    });
    expect(r.body.stdout.length).toBe(1024 * 1024);
    expect(r.body.stderr).toBe('bbbbbbbbbb');
    expect(r.body.truncated).toBe(true);
  });

  it('files: exactly one of content and content_base64, 64 MB at most, absolute paths, writable places only', async () => {
    const w = (args: Record<string, unknown>) =>
      call(client, 'sandbox_write_file', { sandbox: 'rules', path: '/root/f', ...args });
    expect((await w({})).body.message).toMatch(/exactly one of content and content_base64/);
    expect((await w({ content: 'a', content_base64: 'YQ==' })).body.message).toMatch(/exactly one/);
    expect(JSON.stringify((await w({ path: 'rel/f', content: 'a' })).body)).toMatch(/path/);
    expect((await w({ path: '/usr/bin/x', content: 'a' })).body.error).toBe('write_refused');
    expect((await w({ content_base64: 'not base64!' })).body.message).toMatch(
      /content_base64 must be base64/,
    );
    const big = await w({ content: 'x'.repeat(64 * 1024 * 1024 + 1) });
    expect(big.body.error).toBe('file_too_large');
    await call(client, 'sandbox_exec', {
      sandbox: 'rules',
      command: 'head -c 67108865 /dev/zero > /root/big',
    });
    expect(
      (await call(client, 'sandbox_read_file', { sandbox: 'rules', path: '/root/big' })).body.error,
    ).toBe('file_too_large');
    expect(
      (await call(client, 'sandbox_read_file', { sandbox: 'rules', path: '/root/none' })).body
        .error,
    ).toBe('not_found');
    expect(
      (await call(client, 'sandbox_read_file', { sandbox: 'rules', path: '/root/f' })).body.error,
    ).toBe('not_found');
  });
});
