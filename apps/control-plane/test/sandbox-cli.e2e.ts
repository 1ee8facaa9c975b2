import type { RunningApp } from './harness';
import { makeKey, runCli, startSandboxApp } from './sandbox-kit';

/** `npm run sessionboxer -- sandbox …` against a running control plane, over /v1. */
let api: RunningApp;
let key: string;

const cli = (...args: string[]) => runCli(api.url, key, ...args);

beforeAll(async () => {
  api = await startSandboxApp();
  key = (await makeKey(api)).key;
});
afterAll(() => api.close());

it('create, list as a table and as JSON, exec with its exit code, write and read, destroy', async () => {
  const made = await cli(
    'sandbox',
    'create',
    '--name',
    'cli-one',
    '--size',
    'large',
    '--metadata',
    'user=42',
    '--json',
  );
  expect(made.code).toBe(0);
  expect(JSON.parse(made.stdout)).toMatchObject({
    name: 'cli-one',
    size: 'large',
    cpu: 4,
    metadata: { user: '42' },
  });
  const table = await cli('sandbox', 'list');
  expect(table.stdout.split('\n')[0]).toMatch(
    /^NAME\s+STATUS\s+SIZE\s+CENTS_PER_HOUR\s+COST_CENTS\s+METADATA$/,
  );
  expect(table.stdout).toMatch(/cli-one\s+running\s+large\s+20\s+[\d.]+\s+user=42/);
  const ran = await cli('sandbox', 'exec', 'cli-one', 'echo', 'hi;', 'exit', '4');
  expect(ran).toMatchObject({ code: 4, stdout: 'hi\n' });
  expect((await cli('sandbox', 'write', 'cli-one', '/root/x.txt', '--content', 'abc')).code).toBe(
    0,
  );
  expect((await cli('sandbox', 'read', 'cli-one', '/root/x.txt')).stdout).toBe('abc\n');
  const bad = await cli('sandbox', 'create', '--name', 'Bad');
  expect(bad.code).toBe(1);
  expect(bad.stderr).toMatch(/sandbox_create: invalid_argument: name must be/);
  expect(JSON.parse((await cli('sandbox', 'destroy', 'cli-one', '--json')).stdout).status).toBe(
    'deleted',
  );
});
