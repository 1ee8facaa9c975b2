import type { HarnessOutput } from '@sessionboxer/domain';
import { startFakeDaemon, type FakeDaemon } from '../../mcp/test/fake-daemon';
import { NO_MEDIA } from '../saved-image';
import { parsePrompt } from './script';
import { scriptedHarness } from './scripted';
import { InMemorySession } from './test/in-memory-session';
import { runScripted, sessionboxerServer, startScripted } from './test/run-scripted';

/**
 * The scripted agent as the daemon runs it: a child process started from the adapter's plan,
 * its stdout read by the adapter's parser, calling a real sessionboxer stdio MCP server that
 * posts to a real HTTP daemon stand-in.
 */
const SESSION = { id: '3f2a0000-0000-4000-8000-00000000000a', title: 'Fix the flaky test' };
const FINISHED: HarnessOutput = {
  type: 'turn_finished',
  status: 'finished',
  input_tokens: 0,
  output_tokens: 0,
  usage: null,
  context: null,
};
const FAILED: HarnessOutput = { ...FINISHED, status: 'failed' };

let port: InMemorySession;
let daemon: FakeDaemon;
beforeAll(async () => {
  port = new InMemorySession({ ...SESSION, environment: 'docker-linux' });
  daemon = await startFakeDaemon(port.double);
});
beforeEach(() => {
  port.session = { ...SESSION, environment: 'docker-linux' };
  daemon.posts.length = 0;
});
afterAll(() => daemon.close());

function servers() {
  return { sessionboxer: sessionboxerServer(daemon.url) };
}

function script(...steps: unknown[]): string {
  return JSON.stringify({ script: steps });
}

describe('the scripted agent', () => {
  it('runs the demo for a prompt that is not a script: whoami names the session', async () => {
    const run = await runScripted('  Please fix the flaky test  ', { mcpServers: servers() });

    expect(run.fromProgram).toEqual([
      {
        type: 'message',
        text: 'Scripted harness (no model): I received your prompt: “  Please fix the flaky test  ”',
      },
      { type: 'tool_call', id: 'toolu_scripted_1', name: 'mcp__sessionboxer__whoami', input: {} },
      { type: 'tool_result', id: 'toolu_scripted_1', output: expect.any(String), error: false },
      { type: 'message', text: 'This is session “Fix the flaky test” (docker-linux).' },
      FINISHED,
    ]);
    expect(daemon.posts.map((p) => p.tool)).toEqual(['whoami']);
    expect({ code: run.code, fromEnd: run.fromEnd }).toEqual({ code: 0, fromEnd: [] });
  });

  it('plays say, call and echo_env in order, echoing the secret unmasked', async () => {
    const prompt = script(
      { say: 'hello' },
      { call: 'sessionboxer.title_set', args: { title: 'Renamed by a script' } },
      { echo_env: 'ANTHROPIC_API_KEY' },
      { echo_env: 'SCRIPTED_TEST_UNSET' },
    );
    const env = { ANTHROPIC_API_KEY: 'sk-ant-test-secret-42' };
    const run = await runScripted(prompt, { env, mcpServers: servers() });

    const input = { title: 'Renamed by a script' };
    const name = 'mcp__sessionboxer__title_set';
    expect(run.fromProgram).toEqual([
      { type: 'message', text: 'hello' },
      { type: 'tool_call', id: 'toolu_scripted_1', name, input },
      { type: 'tool_result', id: 'toolu_scripted_1', output: expect.any(String), error: false },
      { type: 'message', text: 'sk-ant-test-secret-42' },
      { type: 'message', text: '' },
      FINISHED,
    ]);
    const result = run.fromProgram[2] as { output: string };
    expect(JSON.parse(result.output)).toEqual({ id: SESSION.id, title: 'Renamed by a script' });
    expect(port.session.title).toBe('Renamed by a script');
  });

  it('reports a tool error and a call to an unknown server as error results, then finishes', async () => {
    const prompt = script(
      { call: 'sessionboxer.title_set', args: { title: '' } },
      { call: 'nowhere.tool' },
    );
    const run = await runScripted(prompt, { mcpServers: servers() });

    expect(run.fromProgram).toEqual([
      {
        type: 'tool_call',
        id: 'toolu_scripted_1',
        name: 'mcp__sessionboxer__title_set',
        input: { title: '' },
      },
      {
        type: 'tool_result',
        id: 'toolu_scripted_1',
        output: expect.stringMatching(/title/),
        error: true,
      },
      { type: 'tool_call', id: 'toolu_scripted_2', name: 'mcp__nowhere__tool', input: {} },
      {
        type: 'tool_result',
        id: 'toolu_scripted_2',
        output: 'no MCP server "nowhere" in .mcp.json (it lists: sessionboxer)',
        error: true,
      },
      FINISHED,
    ]);
    expect(port.session.title).toBe(SESSION.title);
  });

  it('rejects a bad script before playing any of it, naming the step', async () => {
    const run = await runScripted(script({ say: 'never said' }, { sleep: 601 }));

    expect(run.fromProgram).toEqual([
      {
        type: 'error',
        code: 'bad_script',
        message: 'script[1] (sleep): sleep: sleep is 0–600 seconds',
      },
      FAILED,
    ]);
    expect(run.code).toBe(1);
  });

  it('fails the turn at a fail step, playing nothing after it', async () => {
    const run = await runScripted(script({ say: 'before' }, { fail: 'boom' }, { say: 'after' }));

    expect(run.fromProgram).toEqual([
      { type: 'message', text: 'before' },
      { type: 'error', code: 'script_failed', message: 'boom' },
      FAILED,
    ]);
    expect({ code: run.code, fromEnd: run.fromEnd }).toEqual({ code: 1, fromEnd: [] });
  });

  it('sends a burst of 50 at 500/s, numbered and stamped as they are made', async () => {
    const run = await runScripted(script({ burst: { count: 50, rate: 500 } }));

    const messages = run.fromProgram.filter((o) => o.type === 'message');
    const bursts = messages.map((m) => JSON.parse(m.text) as { burst: number; emittedAt: number });
    expect(bursts.map((b) => b.burst)).toEqual([...Array(50).keys()]);
    const stamps = bursts.map((b) => b.emittedAt);
    stamps.slice(1).forEach((at, i) => expect(at).toBeGreaterThan(stamps[i]));
    // 49 gaps of 2 ms: a burst sent all at once would take well under this.
    expect(stamps[49] - stamps[0]).toBeGreaterThanOrEqual(90);
    expect(Math.abs(stamps[0] - Date.now())).toBeLessThan(10_000);
    expect(run.fromProgram.at(-1)).toEqual(FINISHED);
  });

  it('exits 143 promptly on SIGTERM during a long sleep; the parser then fails the turn', async () => {
    const prompt = script({ call: 'sessionboxer.whoami' }, { say: 'sleeping' }, { sleep: 600 });
    const run = startScripted(prompt, { mcpServers: servers() });
    await run.next((o) => o.type === 'message' && o.text === 'sleeping');
    const killedAt = Date.now();
    run.child.kill('SIGTERM');
    const result = await run.done;

    expect(Date.now() - killedAt).toBeLessThan(3000);
    expect(result.code).toBe(143);
    expect(result.fromProgram.map((o) => o.type)).toEqual(['tool_call', 'tool_result', 'message']);
    expect(result.fromEnd).toEqual([
      {
        type: 'error',
        code: 'agent_failed',
        message: expect.stringMatching(/^the scripted agent exited with code 143/),
      },
      FAILED,
    ]);
  });

  it('answers stdin that is not its input with an error and a failed turn', async () => {
    const run = await startScripted('', { stdin: '{"prompt": 42}' }).done;

    expect(run.fromProgram).toEqual([
      {
        type: 'error',
        code: 'bad_input',
        message: expect.stringMatching(/^stdin is not \{ prompt, briefing, mcpServers \}: prompt:/),
      },
      FAILED,
    ]);
    expect(run.code).toBe(1);
  });
});

describe('parsePrompt', () => {
  it.each([
    ['not JSON', 'hello {"script": []}'],
    ['JSON without "script"', '{"steps": [{"say": "hi"}]}'],
    ['a JSON array', '[{"say": "hi"}]'],
  ])('runs the demo for %s', (_, prompt) => {
    expect(parsePrompt(prompt)).toEqual({ kind: 'demo' });
  });

  it.each([
    ['{"script": {"say": "hi"}}', '"script" must be an array of steps'],
    ['{"script": ["say"]}', 'script[0] is not an object such as {"say": "hello"}'],
    [
      '{"script": [{"say": "a", "fail": "b"}]}',
      'script[0] needs exactly one of say, call, sleep, echo_env, fail, cost, burst (it has say, fail)',
    ],
    [
      '{"script": [{"shout": "a"}]}',
      'script[0] needs exactly one of say, call, sleep, echo_env, fail, cost, burst (it has shout)',
    ],
    [
      '{"script": [{"call": "whoami"}]}',
      'script[0] (call): call: call names "<server>.<tool>", e.g. "sessionboxer.whoami"',
    ],
    [
      '{"script": [{"call": "a.b", "args": []}]}',
      'script[0] (call): args: Expected object, received array',
    ],
    [
      '{"script": [{"say": "a", "args": {}}]}',
      "script[0] (say): Unrecognized key(s) in object: 'args'",
    ],
    [
      '{"script": [{"burst": {"count": 100001, "rate": 1}}]}',
      'script[0] (burst): burst.count: Number must be less than or equal to 100000',
    ],
    [
      '{"script": [{"burst": {"count": 1, "rate": 0}}]}',
      'script[0] (burst): burst.rate: Number must be greater than 0',
    ],
  ])('rejects %s', (prompt, message) => {
    expect(parsePrompt(prompt)).toEqual({ kind: 'bad_script', message });
  });

  it('reads every step kind, with decimals for sleep and {} for a call without args', () => {
    const prompt = script(
      { say: 'a' },
      { call: 'desktop.screen.shot' },
      { sleep: 0.25 },
      { echo_env: 'X' },
      { fail: 'f' },
      { burst: { count: 3, rate: 2.5 } },
    );
    expect(parsePrompt(`\n ${prompt} \n`)).toEqual({
      kind: 'script',
      steps: [
        { kind: 'say', text: 'a' },
        { kind: 'call', server: 'desktop', tool: 'screen.shot', args: {} },
        { kind: 'sleep', seconds: 0.25 },
        { kind: 'echo_env', name: 'X' },
        { kind: 'fail', message: 'f' },
        { kind: 'burst', count: 3, rate: 2.5 },
      ],
    });
  });
});

describe('the scripted parser', () => {
  it('ignores lines that are not outputs and anything after turn_finished', () => {
    const parser = scriptedHarness.parser({} as never, NO_MEDIA);
    const lines = [
      'warming up',
      '{"type":"progress"}',
      '[1]',
      JSON.stringify(FINISHED),
      '{"type":"message","text":"late"}',
    ];
    expect(lines.flatMap((l) => parser.line(l))).toEqual([FINISHED]);
    expect(parser.end({ code: 0, signal: null, stderr: '' })).toEqual([]);
  });

  it('fails a turn that ended without turn_finished, quoting the last 5 lines of stderr', () => {
    const parser = scriptedHarness.parser({} as never, NO_MEDIA);
    const stderr = ['1', '2', '3', '4', '5', '6', ''].join('\n');
    expect(parser.end({ code: null, signal: 'SIGKILL', stderr })).toEqual([
      {
        type: 'error',
        code: 'agent_failed',
        message:
          'the scripted agent was killed by SIGKILL before finishing its turn:\n2\n3\n4\n5\n6',
      },
      FAILED,
    ]);
  });
});
