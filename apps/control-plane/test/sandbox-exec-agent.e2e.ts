import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningApp } from './harness';
import { call, makeKey, mcpClient, startSandboxApp } from './sandbox-kit';

/**
 * sandbox_exec through the box's exec agent (apps/control-plane/src/sandboxes/exec-agent.ts),
 * with real boxes: commands run side by side, a stop freezes a running command and resume
 * lets it finish, a killed agent is started again, a command ignoring TERM is killed at
 * timeout_seconds + 2 s and answered as a timeout, and env values never sit in a host argv.
 */
let api: RunningApp;
let client: Client;

beforeAll(async () => {
  api = await startSandboxApp();
  client = await mcpClient(api, (await makeKey(api)).key);
  await call(client, 'sandbox_create', { name: 'agent' });
});
afterAll(async () => {
  for (const s of (await call(client, 'sandbox_list')).body?.sandboxes ?? []) {
    await call(client, 'sandbox_destroy', { sandbox: s.id });
  }
  await client.close();
  await api.close();
});

const exec = (command: string, more: Record<string, unknown> = {}) =>
  call(client, 'sandbox_exec', { sandbox: 'agent', command, ...more });

it('runs commands side by side: a slow one does not hold a quick one', async () => {
  const order: string[] = [];
  const slow = exec('sleep 2; echo slow').then((r) => (order.push('slow'), r));
  await new Promise((r) => setTimeout(r, 200));
  const quick = await exec('echo quick');
  order.push('quick');
  expect(quick.body).toEqual({ exit_code: 0, stdout: 'quick\n', stderr: '', truncated: false });
  expect((await slow).body.stdout).toBe('slow\n');
  expect(order).toEqual(['quick', 'slow']);
});

it('a stop freezes a running command with the box; resume lets it finish and answer', async () => {
  const running = exec('sleep 1; echo finished');
  await new Promise((r) => setTimeout(r, 200));
  expect((await call(client, 'sandbox_stop', { sandbox: 'agent' })).body.status).toBe('stopped');
  const stoppedAt = Date.now();
  await new Promise((r) => setTimeout(r, 2000));
  await call(client, 'sandbox_resume', { sandbox: 'agent' });
  const answer = await running;
  expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(2000);
  expect(answer.body).toMatchObject({ exit_code: 0, stdout: 'finished\n' });
  expect((await exec('echo again')).body.stdout).toBe('again\n');
});

it('a command that kills the agent is answered unavailable; the next command starts a new one', async () => {
  const before = (await exec("pgrep -f '^sessionboxer-exec-agent$'")).body.stdout.trim();
  expect(before).toMatch(/^\d+$/);
  const killer = await exec(`kill -KILL ${before}; sleep 0.2`);
  expect(killer.body.error).toBe('unavailable');
  const after = await exec("pgrep -f '^sessionboxer-exec-agent$'");
  expect(after.body.stdout.trim()).toMatch(/^\d+$/);
  expect(after.body.stdout.trim()).not.toBe(before);
});

it('a command ignoring TERM is killed 2 s past timeout_seconds and answered as a timeout', async () => {
  const started = Date.now();
  const r = await exec('trap "" TERM; sleep 30 & sleep 30', { timeout_seconds: 1 });
  expect(r.body.error).toBe('timeout');
  expect(Date.now() - started).toBeLessThan(10_000);
  expect((await exec('ps -eo args | grep -c "^sleep 30" || true')).body.stdout).toBe('0\n');
});

it('env values reach the command on a pipe, in no host process argv', async () => {
  const value = `v-${Date.now()}-not-in-argv`;
  const running = exec('sleep 1; echo "$TOKEN" | wc -c', { env: { TOKEN: value } });
  await new Promise((r) => setTimeout(r, 400));
  const argvs = fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    });
  expect(argvs.some((a) => a.includes('sessionboxer-exec-run'))).toBe(true); // it is running
  expect(argvs.filter((a) => a.includes(value))).toEqual([]);
  expect((await running).body.stdout).toBe(`${value.length + 1}\n`);
});
