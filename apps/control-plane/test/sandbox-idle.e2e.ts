import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocket } from 'ws';
import { RfbProbe, webSocketWire } from '../../box-agent/src/desktop-view/test/rfb-probe';
import { Clock } from '../src/infrastructure/clock';
import { JOBS, type JobsPort } from '../src/jobs';
import { SANDBOX_IDLE_PREFIX } from '../src/sandboxes/sandbox-idle';
import { waitFor } from './box-kit';
import type { RunningApp } from './harness';
import { call, makeKey, mcpClient, startSandboxApp } from './sandbox-kit';

/**
 * idle_timeout_seconds through the jobs port, with the control plane's Clock as the seam:
 * time moves on by a stub, and the sandbox's idle job is made due at once through the port.
 */
let api: RunningApp;
let client: Client;
let offset = 0;

beforeAll(async () => {
  api = await startSandboxApp();
  const clock = api.app.get(Clock);
  const real = clock.now.bind(clock);
  clock.now = () => new Date(real().getTime() + offset);
  client = await mcpClient(api, (await makeKey(api)).key);
});
afterAll(async () => {
  for (const s of (await call(client, 'sandbox_list')).body?.sandboxes ?? []) {
    await call(client, 'sandbox_destroy', { sandbox: s.id });
  }
  await client.close();
  await api.close();
});

const fireNow = (id: string) =>
  api.app
    .get<JobsPort>(JOBS)
    .schedule({ id: `${SANDBOX_IDLE_PREFIX}${id}`, runAt: new Date(0), data: { sandboxId: id } });
/** Fires the sandbox's idle job now and checks, a moment later, that it still runs. */
async function firedStillRunning(id: string, name: string, ms = 300): Promise<void> {
  await fireNow(id);
  await new Promise((r) => setTimeout(r, ms));
  expect((await status(name)).status).toBe('running');
}
const status = async (name: string) =>
  ((await call(client, 'sandbox_list', { all: true })).body.sandboxes as any[]).find(
    (s) => s.name === name,
  );

it('stops a sandbox unused past its idle timeout, with stopped_reason idle; use and updates count', async () => {
  const idle = (await call(client, 'sandbox_create', { name: 'idle-a', idle_timeout_seconds: 60 }))
    .body;
  const busy = (await call(client, 'sandbox_create', { name: 'idle-b', idle_timeout_seconds: 60 }))
    .body;
  const never = (await call(client, 'sandbox_create', { name: 'idle-c' })).body;
  offset = 50_000;
  await call(client, 'sandbox_exec', { sandbox: 'idle-b', command: 'true' }); // use at +50 s
  offset = 61_000;
  for (const s of [idle, busy, never]) await fireNow(s.id);
  await waitFor('idle-a stopped', async () => (await status('idle-a')).status === 'stopped');
  expect(await status('idle-a')).toMatchObject({ status: 'stopped', stopped_reason: 'idle' });
  expect((await status('idle-b')).status).toBe('running');
  expect((await status('idle-c')).status).toBe('running');
  // An update counts from now; a resume too.
  offset = 100_000;
  await call(client, 'sandbox_update', { sandbox: 'idle-b', idle_timeout_seconds: 120 });
  offset = 200_000;
  await firedStillRunning(busy.id, 'idle-b');
  offset = 221_000;
  await fireNow(busy.id);
  await waitFor('idle-b stopped', async () => (await status('idle-b')).status === 'stopped');
  expect((await status('idle-b')).stopped_reason).toBe('idle');
});

it('a live view of its desktop is use: no idle stop while someone watches, counted from its end', async () => {
  offset = 0;
  const s = (await call(client, 'sandbox_create', { name: 'idle-w', idle_timeout_seconds: 60 }))
    .body;
  const desktop = await call(client, 'sandbox_desktop', { sandbox: s.id });
  expect(desktop.isError).toBe(false);
  const url = `${api.url.replace(/^http/, 'ws')}/api/sandbox-view?sandbox=${s.id}&control=0`;
  const ws = new WebSocket(url, { headers: api.authHeaders });
  ws.on('error', () => undefined);
  await new Promise<void>((resolve) => ws.once('open', () => resolve()));
  await new RfbProbe(webSocketWire(ws)).handshake();

  offset = 120_000;
  await firedStillRunning(s.id, 'idle-w', 500);

  const gone = new Promise((resolve) => ws.once('close', resolve));
  ws.close();
  await gone;
  await waitFor('the view recorded closed', async () => {
    const res = await api.request('GET', `/api/streams/desktopview-sandbox-${s.id}/events`);
    return (res.body.events as { type: string }[]).some((e) => e.type === 'DesktopViewClosed');
  });
  offset = 150_000; // 30 s after the view ended
  await firedStillRunning(s.id, 'idle-w', 500);
  offset = 182_000;
  await fireNow(s.id);
  await waitFor('idle-w stopped', async () => (await status('idle-w')).status === 'stopped');
  expect((await status('idle-w')).stopped_reason).toBe('idle');
}, 90_000);
