import { allEvents } from './agent/real-agent-kit';
import { SandboxTurns } from '../src/sandboxes/sandbox-turns';
import { script, startAgentWorld, untilTurnFinished, type AgentWorld } from './sandbox-agent-kit';
import { call, makeKey } from './sandbox-kit';

/**
 * Every refusal rule of agent_prompt and agent_conversations, each refused with the spec's code
 * (or a message naming the parameter) and nothing recorded; the queue and the per-size cap,
 * with the scripted harness (enabled by the operator here) in real sandboxes.
 */
const TOKEN = 'tok-rules-secret-value-77';
let world: AgentWorld;
const prompt = (args: Record<string, unknown>) =>
  call(world.client, 'agent_prompt', { sandbox: 'rules-a', prompt: 'Hello', ...args });

beforeAll(async () => {
  world = await startAgentWorld();
  await call(world.client, 'set_secret', { name: 'ANTHROPIC_API_KEY', value: 'sk-ant-rules-1' });
  await call(world.client, 'set_secret', { name: 'MY_TOKEN', value: TOKEN });
  for (const [name, secrets] of [
    ['rules-a', ['ANTHROPIC_API_KEY', 'MY_TOKEN']],
    ['rules-bare', []],
    ['rules-stopped', ['ANTHROPIC_API_KEY']],
  ] as const) {
    expect((await call(world.client, 'sandbox_create', { name, secrets })).isError).toBe(false);
  }
  await call(world.client, 'sandbox_stop', { sandbox: 'rules-stopped' });
}, 60_000);
afterAll(() => world?.close(), 60_000);

/** Nothing of a refused prompt is in the history. */
async function expectRefused(args: Record<string, unknown>, code: string, sandbox = 'rules-a') {
  const before = (await allEvents(world.api)).length;
  const r = await call(world.client, 'agent_prompt', { sandbox, prompt: 'Hello', ...args });
  expect(r).toMatchObject({ isError: true, body: { error: code } });
  expect(typeof r.body.message).toBe('string');
  expect((await allEvents(world.api)).length).toBe(before);
  return r.body;
}

describe('agent_prompt refusals', () => {
  it('not_running: a stopped sandbox', () => expectRefused({}, 'not_running', 'rules-stopped'));
  it('credentials_missing: no key among the sandbox’s secrets', async () => {
    expect((await expectRefused({}, 'credentials_missing', 'rules-bare')).message).toMatch(
      /ANTHROPIC_API_KEY/,
    );
  });
  it('unknown_harness', () => expectRefused({ harness: 'codex' }, 'unknown_harness'));
  it('unknown_model', () => expectRefused({ model: 'gpt-4o' }, 'unknown_model'));
  it('conversation_not_found', () =>
    expectRefused({ conversation: 'no-such-conversation' }, 'conversation_not_found'));
  it('agent_unavailable: the harness’s CLI is not there', async () => {
    const harness = world.api.app.get(SandboxTurns).harnesses;
    const real = harness.executable.bind(harness);
    harness.executable = () => null;
    try {
      await expectRefused({}, 'agent_unavailable');
    } finally {
      harness.executable = real;
    }
  });
  it('invalid_argument naming the parameter: wait_seconds, prompt, new with conversation', async () => {
    for (const [args, field] of [
      [{ wait_seconds: 301 }, 'wait_seconds'],
      [{ wait_seconds: -1 }, 'wait_seconds'],
      [{ prompt: 'x'.repeat(262_145) }, 'prompt'],
      [{ prompt: '' }, 'prompt'],
      [{ new: true, conversation: 'c' }, 'new'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      // The SDK's own check of the schema answers first, in plain text (MCP error -32602).
      const before = (await allEvents(world.api)).length;
      const r = await prompt(args);
      expect(r.isError).toBe(true);
      const text = typeof r.body === 'string' ? r.body : `${r.body.error} ${r.body.message}`;
      expect(text).toMatch(/invalid|-32602/i);
      expect(text).toContain(field);
      expect((await allEvents(world.api)).length).toBe(before);
    }
  });
});

describe('conversations, the queue and the cap', () => {
  let first: string;

  it('harness_mismatch: a conversation runs one harness', async () => {
    const r = await prompt({
      harness: 'scripted',
      prompt: script({ say: 'one' }),
      wait_seconds: 30,
    });
    expect(r.body).toMatchObject({ turn: 1, status: 'finished' });
    first = r.body.conversation;
    await expectRefused({ conversation: first, harness: 'claude' }, 'harness_mismatch');
  }, 60_000);

  it('queues a prompt sent while a turn runs, and runs it next; secrets masked', async () => {
    const running = await prompt({
      conversation: first,
      prompt: script({ sleep: 2 }),
      wait_seconds: 0,
    });
    expect(running.body).toMatchObject({ conversation: first, turn: 2, status: 'running' });
    const queued = await prompt({
      conversation: first,
      prompt: script({ echo_env: 'MY_TOKEN' }),
      wait_seconds: 0,
    });
    expect(queued.body).toMatchObject({ turn: 3, status: 'queued', events: [] });
    const list = await call(world.client, 'agent_conversations', { sandbox: 'rules-a' });
    expect(list.body.conversations[0]).toMatchObject({ id: first, status: 'running', queued: 1 });
    const events = await untilTurnFinished(world.client, 'rules-a', first, 3);
    const said = events.filter((e) => e.turn === 3 && e.type === 'message');
    expect(said.map((e) => e.text)).toEqual(['••••••••']);
    expect(JSON.stringify(await allEvents(world.api))).not.toContain(TOKEN);
  }, 60_000);

  it('too_many_turns: a small sandbox runs 2 conversations at a time', async () => {
    const long = script({ sleep: 20 });
    const a = await prompt({ new: true, harness: 'scripted', prompt: long, wait_seconds: 0 });
    const b = await prompt({ new: true, harness: 'scripted', prompt: long, wait_seconds: 0 });
    expect([a.body.status, b.body.status]).toEqual(['running', 'running']);
    const body = await expectRefused(
      { new: true, harness: 'scripted', prompt: long },
      'too_many_turns',
    );
    expect(body.message).toMatch(/2 conversations/);
    // A running conversation still takes prompts: they wait in its queue.
    const c = await prompt({ conversation: a.body.conversation, prompt: long, wait_seconds: 0 });
    expect(c.body.status).toBe('queued');
  }, 60_000);

  it('too_many_turns holds under 8 racing prompts: exactly 2 conversations start', async () => {
    await call(world.client, 'sandbox_create', { name: 'rules-race' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(world.client, 'agent_prompt', {
          sandbox: 'rules-race',
          new: true,
          harness: 'scripted',
          prompt: script({ sleep: 20 }),
          wait_seconds: 0,
        }),
      ),
    );
    const started = answers.filter((a) => !a.isError);
    expect(started.map((a) => a.body.status)).toEqual(['running', 'running']);
    expect(answers.filter((a) => a.isError).map((a) => a.body.error)).toEqual(
      Array(6).fill('too_many_turns'),
    );
    const list = await call(world.client, 'agent_conversations', { sandbox: 'rules-race' });
    expect(list.body.conversations).toHaveLength(2);
  }, 60_000);

  it('agent_conversations: conversation_not_found, after without conversation', async () => {
    const missing = await call(world.client, 'agent_conversations', {
      sandbox: 'rules-a',
      conversation: 'nope',
    });
    expect(missing.body.error).toBe('conversation_not_found');
    const bad = await call(world.client, 'agent_conversations', { sandbox: 'rules-a', after: 3 });
    expect(bad.body).toMatchObject({ error: 'invalid_argument' });
    const other = await call(world.client, 'agent_conversations', {
      sandbox: 'rules-bare',
      conversation: first,
    });
    expect(other.body.error).toBe('conversation_not_found');
  });
});

describe('the REST face and its OpenAPI', () => {
  it('POST /v1/agent_prompt and /v1/agent_conversations answer as MCP does', async () => {
    const { key } = await makeKey(world.api);
    const rest = (tool: string, body: unknown) =>
      world.api.request('POST', `/v1/${tool}`, body, { authorization: `Bearer ${key}` });
    const said = await rest('agent_prompt', {
      sandbox: 'rules-bare',
      harness: 'scripted',
      prompt: script({ say: 'over REST' }),
      wait_seconds: 30,
    });
    expect(said.status).toBe(200);
    expect(said.body).toMatchObject({ turn: 1, status: 'finished' });
    const listed = await rest('agent_conversations', { sandbox: 'rules-bare' });
    expect(listed.body.conversations).toHaveLength(1);
    const refused = await rest('agent_prompt', { sandbox: 'rules-bare', prompt: 'hi', new: true });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'credentials_missing' });
    expect((await rest('agent_prompt', { sandbox: 'rules-stopped', prompt: 'x' })).body.error).toBe(
      'not_running',
    );
    const doc = await world.api.request('GET', '/api/v1/openapi.json');
    const paths = doc.body.paths as Record<string, any>;
    expect(paths['/v1/agent_prompt'].post['x-scope']).toBe('sandboxes:write');
    expect(paths['/v1/agent_conversations'].post['x-scope']).toBe('sandboxes:read');
    const schema = paths['/v1/agent_prompt'].post.requestBody.content['application/json'].schema;
    expect(schema.properties.wait_seconds).toMatchObject({ minimum: 0, maximum: 300 });
    expect(schema.required).toEqual(['sandbox', 'prompt']);
  }, 60_000);
});
