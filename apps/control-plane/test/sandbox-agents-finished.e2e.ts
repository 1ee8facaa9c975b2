import { Clock } from '../src/infrastructure/clock';
import { JOBS, type JobsPort } from '../src/jobs';
import { AGENTS_FINISHED_PREFIX } from '../src/sandboxes/sandbox-agents-finished';
import { waitFor } from './box-kit';
import { script, startAgentWorld, type AgentWorld } from './sandbox-agent-kit';
import { call } from './sandbox-kit';

/**
 * stop_when_agents_finish through the jobs port, with the control plane's Clock as the seam:
 * time moves on by a stub, and a sandbox's agents-finished job is made due at once through
 * the port. A sandbox stops with stopped_reason agents_finished once a turn has finished, none
 * runs or waits, and nothing used it for 2 minutes.
 */
let world: AgentWorld;
let offset = 0;

beforeAll(async () => {
  world = await startAgentWorld();
  const clock = world.api.app.get(Clock);
  const real = clock.now.bind(clock);
  clock.now = () => new Date(real().getTime() + offset);
}, 60_000);
afterAll(() => world?.close(), 60_000);

const fireNow = (id: string) =>
  world.api.app.get<JobsPort>(JOBS).schedule({
    id: `${AGENTS_FINISHED_PREFIX}${id}`,
    runAt: new Date(0),
    data: { sandboxId: id },
  });
const sandbox = async (name: string) =>
  ((await call(world.client, 'sandbox_list', { all: true })).body.sandboxes as any[]).find(
    (s) => s.name === name,
  );
const create = async (name: string, stop: boolean) =>
  (await call(world.client, 'sandbox_create', { name, stop_when_agents_finish: stop })).body;
const prompt = (name: string, text: string, wait_seconds: number) =>
  call(world.client, 'agent_prompt', {
    sandbox: name,
    harness: 'scripted',
    prompt: text,
    wait_seconds,
  });

it('stops once its agents finished and it went 2 minutes unused; not before, not without it', async () => {
  const done = await create('fin-a', true);
  const off = await create('fin-b', false);
  const busy = await create('fin-c', true);
  const fresh = await create('fin-d', true);
  for (const name of ['fin-a', 'fin-b']) {
    expect((await prompt(name, script({ say: 'done' }), 30)).body.status).toBe('finished');
  }
  expect((await prompt('fin-c', script({ sleep: 30 }), 0)).body.status).toBe('running');

  // 60 s after: not yet.
  offset = 60_000;
  await fireNow(done.id);
  await new Promise((r) => setTimeout(r, 300));
  expect((await sandbox('fin-a')).status).toBe('running');

  // 121 s after: the one whose agents finished stops; the others do not.
  offset = 121_000;
  for (const s of [done, off, busy, fresh]) await fireNow(s.id);
  await waitFor('fin-a stopped', async () => (await sandbox('fin-a')).status === 'stopped');
  expect(await sandbox('fin-a')).toMatchObject({
    status: 'stopped',
    stopped_reason: 'agents_finished',
  });
  await new Promise((r) => setTimeout(r, 300));
  expect((await sandbox('fin-b')).status).toBe('running'); // stop_when_agents_finish false
  expect((await sandbox('fin-c')).status).toBe('running'); // a turn still runs
  expect((await sandbox('fin-d')).status).toBe('running'); // no turn has finished yet
}, 90_000);

it('a use after the turn counts: the 2 minutes start again', async () => {
  await create('fin-e', true);
  const e = await sandbox('fin-e');
  expect((await prompt('fin-e', script({ say: 'ok' }), 30)).body.status).toBe('finished');
  offset += 100_000;
  await call(world.client, 'sandbox_exec', { sandbox: 'fin-e', command: 'true' });
  offset += 100_000;
  await fireNow(e.id);
  await new Promise((r) => setTimeout(r, 300));
  expect((await sandbox('fin-e')).status).toBe('running');
  offset += 30_000;
  await fireNow(e.id);
  await waitFor('fin-e stopped', async () => (await sandbox('fin-e')).status === 'stopped');
  expect((await sandbox('fin-e')).stopped_reason).toBe('agents_finished');
}, 90_000);
