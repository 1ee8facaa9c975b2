import { script, startAgentWorld, type AgentWorld } from './sandbox-agent-kit';
import { call, makeKey, runCli } from './sandbox-kit';

/** `npm run sessionboxer -- agent prompt|conversations` against a running control plane. */
let world: AgentWorld;
let key: string;

const cli = (...args: string[]) => runCli(world.api.url, key, ...args);

beforeAll(async () => {
  world = await startAgentWorld();
  key = (await makeKey(world.api)).key;
  await call(world.client, 'sandbox_create', { name: 'cli-agent' });
}, 60_000);
afterAll(() => world?.close(), 60_000);

it('prompts an agent and prints its events; lists and reads conversations, as text and JSON', async () => {
  const ran = await cli(
    'agent',
    'prompt',
    'cli-agent',
    script({ say: 'Hello from the agent' }),
    '--harness',
    'scripted',
    '--wait',
    '30',
  );
  expect(ran.code).toBe(0);
  expect(ran.stdout).toMatch(/#2 turn 1 message: Hello from the agent/);
  expect(ran.stdout).toMatch(/conversation \S+ turn 1: finished/);
  const list = await cli('agent', 'conversations', 'cli-agent');
  expect(list.stdout.split('\n')[0]).toMatch(
    /^ID\s+HARNESS\s+MODEL\s+STATUS\s+TURNS\s+QUEUED\s+PREVIEW$/,
  );
  expect(list.stdout).toMatch(/scripted\s+default\s+idle\s+1\s+0/);
  const json = JSON.parse((await cli('agent', 'conversations', 'cli-agent', '--json')).stdout);
  const id = json.conversations[0].id as string;
  const page = await cli(
    'agent',
    'conversations',
    'cli-agent',
    '--conversation',
    id,
    '--after',
    '1',
  );
  expect(page.stdout).toMatch(/^#2 turn 1 message: Hello from the agent$/m);
  expect(page.stdout).toMatch(/next_after 3/);
  const refused = await cli('agent', 'prompt', 'cli-agent', 'hi', '--harness', 'codex');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/agent_prompt: unknown_harness: /);
}, 90_000);
