import { say, use } from './doubles/model-provider/model-provider-double';
import { allEvents, realKey } from './agent/real-agent-kit';
import {
  expectSpecEvent,
  startAgentWorld,
  untilTurnFinished,
  type AgentWorld,
} from './sandbox-agent-kit';
import { MASK } from '../src/settings';
import { call } from './sandbox-kit';

/**
 * agent_prompt and agent_conversations over MCP (a real SDK client over Streamable HTTP), the
 * real Claude Code running in a real bubblewrap sandbox against the model-provider double,
 * reached through the sandbox's edge with the sandbox's own ANTHROPIC_API_KEY secret.
 */
const KEY = realKey('Sb4');
const TOKEN = 'tok-sandbox-agent-secret-0042';
let world: AgentWorld;

beforeAll(async () => {
  world = await startAgentWorld();
  const { client } = world;
  await call(client, 'set_secret', { name: 'ANTHROPIC_API_KEY', value: KEY });
  await call(client, 'set_secret', { name: 'MY_TOKEN', value: TOKEN });
  const created = await call(client, 'sandbox_create', {
    name: 'agent-a',
    secrets: ['ANTHROPIC_API_KEY', 'MY_TOKEN'],
  });
  expect(created.isError).toBe(false);
}, 60_000);
afterAll(() => world?.close(), 60_000);

it('runs a turn of Claude Code in the sandbox: the spec fields, secrets masked, the own key', async () => {
  const { client, double } = world;
  double.play([
    [
      say('Writing the file.'),
      use('Bash', { command: 'echo "$MY_TOKEN"; echo hi > /root/out.txt', description: 'Write' }),
    ],
    [say('Done.')],
  ]);
  const r = await call(client, 'agent_prompt', {
    sandbox: 'agent-a',
    prompt: `Write the file (the token is ${TOKEN})`,
    wait_seconds: 120,
  });
  expect(r.isError).toBe(false);
  const body = r.body;
  expect(Object.keys(body).sort()).toEqual([
    'conversation',
    'events',
    'next_after',
    'status',
    'turn',
  ]);
  expect(body).toMatchObject({ turn: 1, status: 'finished' });
  const events = body.events as Record<string, any>[];
  events.forEach(expectSpecEvent);
  expect(events.map((e) => e.type)).toEqual([
    'prompt',
    'message',
    'tool_call',
    'tool_result',
    'message',
    'turn_finished',
  ]);
  expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  expect(body.next_after).toBe(6);
  expect(events[0]).toMatchObject({
    text: `Write the file (the token is ${MASK})`,
    model: 'default',
  });
  expect(events[3].output).toContain(MASK);
  expect(events[5]).toMatchObject({ status: 'finished' });
  expect(JSON.stringify(events)).not.toContain(TOKEN);

  // The agent's work is in the sandbox; the key it used reached the double, never an event.
  const file = await call(client, 'sandbox_read_file', {
    sandbox: 'agent-a',
    path: '/root/out.txt',
  });
  expect(file.body.content).toBe('hi\n');
  const posts = double.main();
  expect(new Set(posts.map((p) => p.headers['x-api-key']))).toEqual(new Set([KEY]));
  const history = JSON.stringify(await allEvents(world.api));
  expect(history).not.toContain(KEY);
  expect(history).not.toContain(TOKEN);
}, 150_000);

it('lists the conversation, pages its events, and continues it in a queued-then-run turn', async () => {
  const { client, double } = world;
  const list = await call(client, 'agent_conversations', { sandbox: 'agent-a' });
  expect(list.body.conversations).toHaveLength(1);
  const c = list.body.conversations[0];
  expect(Object.keys(c).sort()).toEqual(
    [
      'created_at',
      'harness',
      'id',
      'model',
      'preview',
      'queued',
      'status',
      'turns',
      'updated_at',
    ].sort(),
  );
  expect(c).toMatchObject({ harness: 'claude', status: 'idle', turns: 1, queued: 0 });
  expect(c.preview).not.toContain(TOKEN);

  const page = await call(client, 'agent_conversations', {
    sandbox: 'agent-a',
    conversation: c.id,
    after: 4,
  });
  expect(Object.keys(page.body).sort()).toEqual(['events', 'next_after', 'status']);
  expect(page.body.events.map((e: any) => e.seq)).toEqual([5, 6]);
  expect(page.body).toMatchObject({ status: 'idle', next_after: 6 });

  double.play([[say('Second answer.')]]);
  const r = await call(client, 'agent_prompt', {
    sandbox: 'agent-a',
    prompt: 'And again',
    model: 'sonnet',
    wait_seconds: 0,
  });
  expect(r.body).toMatchObject({ conversation: c.id, turn: 2 });
  expect(['running', 'finished']).toContain(r.body.status);
  const events = await untilTurnFinished(client, 'agent-a', c.id, 2);
  const turn2 = events.filter((e) => e.turn === 2);
  expect(turn2[0]).toMatchObject({ type: 'prompt', text: 'And again', model: 'sonnet', seq: 7 });
  expect(turn2.at(-1)).toMatchObject({ type: 'turn_finished', status: 'finished' });
}, 150_000);

it('runs the real OpenCode in a new conversation of the same sandbox', async () => {
  const { client, double } = world;
  double.play([
    [say('From OpenCode.'), use('bash', { command: 'echo "$MY_TOKEN"', description: 'Token' })],
    [say('OpenCode is done.')],
  ]);
  const r = await call(client, 'agent_prompt', {
    sandbox: 'agent-a',
    prompt: 'Say hello',
    harness: 'opencode',
    wait_seconds: 120,
  });
  expect(r.isError).toBe(false);
  expect(r.body).toMatchObject({ turn: 1, status: 'finished' });
  const events = r.body.events as Record<string, any>[];
  events.forEach(expectSpecEvent);
  expect(events.filter((e) => e.type === 'message').map((e) => e.text)).toEqual([
    'From OpenCode.',
    'OpenCode is done.',
  ]);
  const result = events.find((e) => e.type === 'tool_result');
  expect(result!.output).toContain(MASK);
  expect(JSON.stringify(events)).not.toContain(TOKEN);
  const list = await call(client, 'agent_conversations', { sandbox: 'agent-a' });
  expect(list.body.conversations.map((c: any) => c.harness)).toEqual(['opencode', 'claude']);
}, 150_000);

it('cuts a tool_result at 65,536 characters (the CLI gave the model all of it)', async () => {
  const { client, double } = world;
  await call(client, 'sandbox_exec', {
    sandbox: 'agent-a',
    command:
      'for i in $(seq 1 40); do head -c 1900 /dev/zero | tr "\\0" a; echo; done > /root/long.txt',
  });
  double.play([[use('Read', { file_path: '/root/long.txt' })], [say('Read.')]]);
  const r = await call(client, 'agent_prompt', {
    sandbox: 'agent-a',
    prompt: 'Read the long file',
    harness: 'claude',
    new: true,
    wait_seconds: 120,
  });
  expect(r.body.status).toBe('finished');
  const result = (r.body.events as Record<string, any>[]).find((e) => e.type === 'tool_result');
  expect(result!.output).toHaveLength(65_536);
  expect(result!.output.startsWith('1\taaaa')).toBe(true);
  const answered = double.main().at(-1)!;
  expect(JSON.stringify(answered.body).length).toBeGreaterThan(76_000);
}, 150_000);
