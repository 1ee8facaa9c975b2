import { claudeCodeHarness } from './claude-code';
import { replayer, turnContext, turnSpecFor } from './test/stream-replay';

const turnSpec = turnSpecFor('claude-code', '6b0e2f4a-91c3-4d7e-8a55-0c2d9e7f1b38');
const ctx = turnContext('/tmp/sessionboxer-turn-3');
const { feed, replay } = replayer(claudeCodeHarness, turnSpec());

describe('claude-code stream', () => {
  it('reports the session, the answer and the finished turn of a plain text answer', () => {
    expect(replay('claude-text.jsonl')).toEqual([
      { type: 'harness_session', id: '6b0e2f4a-91c3-4d7e-8a55-0c2d9e7f1b38' },
      {
        type: 'message',
        text:
          'A merge joins two branches with a new merge commit and keeps both histories as they ' +
          "happened; a rebase replays your branch's commits on top of the other branch, giving a " +
          "linear history but new commit ids.\n\nRebase local work you haven't pushed; merge when " +
          'others already have the commits.',
      },
      {
        type: 'turn_finished',
        status: 'finished',
        input_tokens: 19086,
        output_tokens: 71,
        usage: null,
        context: { usedTokens: 19157, windowTokens: 200000 },
        cost_usd: 0.02132685,
      },
    ]);
  });

  it('maps MCP and built-in tool calls and their results, skipping thinking and blank text', () => {
    const outputs = replay('claude-mcp-tools.jsonl');
    expect(outputs).toEqual([
      { type: 'harness_session', id: 'b51d7e3c-0a9f-4c26-8e14-7f3b2a6d9c05' },
      { type: 'message', text: "I'll check which session this is first." },
      {
        type: 'tool_call',
        id: 'toolu_01D4kfV7pQmX9wN2sYbR6tHc',
        name: 'mcp__sessionboxer__whoami',
        input: {},
      },
      {
        type: 'tool_result',
        id: 'toolu_01D4kfV7pQmX9wN2sYbR6tHc',
        output: expect.stringMatching(
          /^\{\n {2}"id": "s_7Kq2mP9xV4",\n {2}"title": "Backend tests"/,
        ),
        error: false,
      },
      {
        type: 'tool_call',
        id: 'toolu_01Ht6vY2cMbN8xQ4rKp7wZsE',
        name: 'mcp__sessionboxer__pr_attach',
        input: { repo: 'acme/api', number: 42 },
      },
      {
        type: 'tool_result',
        id: 'toolu_01Ht6vY2cMbN8xQ4rKp7wZsE',
        output:
          'No pull request #42 in acme/api: GitHub answered 404 Not Found. List the open ones ' +
          'with `gh pr list --repo acme/api` and attach one of those.',
        error: true,
      },
      {
        type: 'tool_call',
        id: 'toolu_01Lp3xR8wVnQ5tKb2mYc9dHs',
        name: 'mcp__desktop__screenshot',
        input: {},
      },
      {
        type: 'tool_result',
        id: 'toolu_01Lp3xR8wVnQ5tKb2mYc9dHs',
        output: '[image]\nScreenshot of display :1 at 1024x768.',
        error: false,
      },
      {
        type: 'tool_call',
        id: 'toolu_01Vb8nK3qZxT6mRc4wLp2yHf',
        name: 'Bash',
        input: {
          command: 'gh pr list --repo acme/api --limit 5',
          description: 'List open pull requests in acme/api',
        },
      },
      {
        type: 'tool_result',
        id: 'toolu_01Vb8nK3qZxT6mRc4wLp2yHf',
        output:
          '41\tFix login redirect\tfix/login-redirect\tOPEN\t2026-01-04T16:20:11Z\n' +
          '40\tBump deps\tdeps/bump\tOPEN\t2026-01-02T08:03:57Z',
        error: false,
      },
      {
        type: 'message',
        text:
          'This is session **Backend tests** (`s_7Kq2mP9xV4`), running on docker-linux with the ' +
          "`api` repository.\n\nPR #42 doesn't exist in acme/api — the open pull requests are #41 " +
          '(Fix login redirect) and #40 (Bump deps). Shall I attach #41 instead?',
      },
      {
        type: 'turn_finished',
        status: 'finished',
        input_tokens: 152597,
        output_tokens: 624,
        usage: {
          five_hour: {
            status: 'allowed',
            resetsAt: 1767636000,
            rateLimitType: 'five_hour',
            overageStatus: 'rejected',
            overageDisabledReason: 'org_level_disabled',
            isUsingOverage: false,
          },
        },
        context: { usedTokens: 33131, windowTokens: 200000 },
        cost_usd: 0.13924375,
      },
    ]);
  });

  it('fails a turn that ran out of turns with max_turns, keeping its token totals', () => {
    const outputs = replay('claude-max-turns.jsonl');
    expect(outputs.map((o) => o.type)).toEqual([
      'harness_session',
      'tool_call',
      'tool_result',
      'message',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'error',
      'turn_finished',
    ]);
    expect(outputs[2]).toEqual({
      type: 'tool_result',
      id: 'toolu_01Ab3cD4eF5gH6iJ7kL8mN9o',
      output: expect.stringContaining('Tests:       1 failed, 37 passed, 38 total'),
      error: true,
    });
    expect(outputs[5]).toEqual({
      type: 'tool_result',
      id: 'toolu_01Pq2rS3tU4vW5xY6zA7bC8d',
      output: expect.stringContaining("     8\u2192    return res.redirect('/');\n"),
      error: false,
    });
    expect(outputs.slice(-2)).toEqual([
      {
        type: 'error',
        code: 'max_turns',
        message: 'Claude Code stopped after 4 turns: it reached its maximum number of turns',
      },
      {
        type: 'turn_finished',
        status: 'failed',
        input_tokens: 68211,
        output_tokens: 684,
        usage: null,
        context: { usedTokens: 24566, windowTokens: 200000 },
        cost_usd: 0.062802,
      },
    ]);
  });

  it('fails an invalid key with credentials_invalid, without echoing the CLI note as a message', () => {
    expect(replay('claude-auth-error.jsonl', { code: 1, signal: null, stderr: '' })).toEqual([
      { type: 'harness_session', id: '9e4b1c7d-3a8f-4d52-b6e1-2c7f9a4d8b13' },
      {
        type: 'error',
        code: 'credentials_invalid',
        message: 'Invalid API key · Please run /login',
      },
      {
        type: 'turn_finished',
        status: 'failed',
        input_tokens: 0,
        output_tokens: 0,
        usage: null,
        context: { usedTokens: 0, windowTokens: null },
        cost_usd: 0,
      },
    ]);
  });

  it('fails an overloaded API (529) with rate_limited, read from the error text', () => {
    expect(replay('claude-overloaded.jsonl', { code: 1, signal: null, stderr: '' })).toEqual([
      { type: 'harness_session', id: '4d7a2e9c-1f5b-4c83-a6d0-7b3e9c1f5a48' },
      {
        type: 'error',
        code: 'rate_limited',
        message:
          'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":null}',
      },
      {
        type: 'turn_finished',
        status: 'failed',
        input_tokens: 0,
        output_tokens: 0,
        usage: null,
        context: { usedTokens: 0, windowTokens: null },
        cost_usd: 0,
      },
    ]);
  });

  it('after a crash owes an error naming the signal and the end of stderr, then a failed turn', () => {
    const stderr = [
      '',
      '<--- Last few GCs --->',
      '',
      '[4127:0x6a3f000]   812345 ms: Mark-Compact 4043.1 (4129.4) -> 4031.7 (4133.2) MB',
      '',
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      '----- Native stack trace -----',
      '',
      ' 1: 0xb8d0a3 node::OOMErrorHandler(char const*, v8::OOMDetails const&) [node]',
      ' 2: 0xf06250 v8::Utils::ReportOOMFailure(v8::internal::Isolate*) [node]',
      ' 3: 0xf06537 v8::internal::V8::FatalProcessOutOfMemory(v8::internal::Isolate*) [node]',
      '',
    ].join('\n');
    expect(replay('claude-crash.jsonl', { code: null, signal: 'SIGABRT', stderr })).toEqual([
      { type: 'harness_session', id: '7f2c9e4a-6b1d-4a85-9c37-e0b4d8f2a6c1' },
      { type: 'message', text: "I'll run the whole suite with coverage." },
      {
        type: 'tool_call',
        id: 'toolu_01Zx9yW8vU7tS6rQ5pO4nM3l',
        name: 'Bash',
        input: {
          command: 'cd /workspace/api && npm test -- --coverage',
          description: 'Run the tests with coverage',
          timeout: 600000,
        },
      },
      {
        type: 'error',
        code: 'agent_failed',
        message:
          "Claude Code was killed by SIGABRT before reporting the turn's result. Last lines of stderr:\n" +
          'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n' +
          '----- Native stack trace -----\n' +
          ' 1: 0xb8d0a3 node::OOMErrorHandler(char const*, v8::OOMDetails const&) [node]\n' +
          ' 2: 0xf06250 v8::Utils::ReportOOMFailure(v8::internal::Isolate*) [node]\n' +
          ' 3: 0xf06537 v8::internal::V8::FatalProcessOutOfMemory(v8::internal::Isolate*) [node]',
      },
      {
        type: 'turn_finished',
        status: 'failed',
        input_tokens: 0,
        output_tokens: 0,
        usage: null,
        context: { usedTokens: 20863, windowTokens: null },
      },
    ]);
  });

  it('names the exit code when the CLI exits on its own, and says when stderr was empty', () => {
    expect(feed([], { code: 2, signal: null, stderr: '  \n' })).toEqual([
      {
        type: 'error',
        code: 'agent_failed',
        message:
          "Claude Code exited with code 2 before reporting the turn's result. It wrote nothing to stderr.",
      },
      {
        type: 'turn_finished',
        status: 'failed',
        input_tokens: 0,
        output_tokens: 0,
        usage: null,
        context: null,
      },
    ]);
  });

  it('ignores lines that are not JSON objects or not of a known shape, without throwing', () => {
    const outputs = feed([
      'Warning: no stdin data received in 3s, proceeding without it.',
      '[1,2,3]',
      '{"type":"assistant"',
      'null',
      { type: 'assistant', message: null },
      { type: 'assistant', message: { content: 'not blocks' } },
      { type: 'assistant', message: { content: [null, 7, { type: 'tool_use', name: 'Bash' }] } },
      { type: 'user', message: { content: [{ type: 'tool_result', content: 'no id' }] } },
      { type: 'stream_event', event: { type: 'content_block_delta' } },
      { type: 'system', subtype: 'compact_boundary' },
      { type: 'result', subtype: 'success', is_error: false, usage: { input_tokens: -5 } },
    ]);
    expect(outputs).toEqual([
      {
        type: 'turn_finished',
        status: 'finished',
        input_tokens: 0,
        output_tokens: 0,
        usage: null,
        context: { usedTokens: 0, windowTokens: null },
      },
    ]);
  });

  it('reports the session once, ends the turn once, and reads nothing after the result', () => {
    const sid = { session_id: 'f00d0000-0000-4000-8000-000000000001' };
    const result = { type: 'result', subtype: 'success', is_error: false, ...sid };
    const outputs = feed([
      { type: 'system', subtype: 'init', model: 'claude-haiku-4-5-20251001', ...sid },
      { type: 'system', subtype: 'init', model: 'claude-haiku-4-5-20251001', ...sid },
      result,
      { type: 'assistant', message: { content: [{ type: 'text', text: 'late' }] }, ...sid },
      result,
    ]);
    expect(outputs.filter((o) => o.type === 'harness_session')).toHaveLength(1);
    expect(outputs.filter((o) => o.type === 'turn_finished')).toHaveLength(1);
    expect(outputs.some((o) => o.type === 'message')).toBe(false);
  });

  it("leaves a sub-agent's lines inside its Task call, counting context from the main thread", () => {
    const usage = (n: number) => ({ input_tokens: n, output_tokens: 10 });
    const outputs = feed([
      {
        type: 'assistant',
        message: {
          model: 'claude-sonnet-4-5-20250929',
          content: [{ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'x' } }],
          usage: usage(1000),
        },
        parent_tool_use_id: null,
      },
      {
        type: 'assistant',
        message: { content: [{ type: 'text', text: 'sub-agent thinking aloud' }], usage: usage(5) },
        parent_tool_use_id: 'toolu_task',
      },
      {
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_sub', content: 'x' }] },
        parent_tool_use_id: 'toolu_task',
      },
      {
        type: 'result',
        subtype: 'success',
        is_error: false,
        modelUsage: {
          'claude-haiku-4-5-20251001': { contextWindow: 400000 },
          'claude-sonnet-4-5-20250929': { contextWindow: 1000000 },
        },
      },
    ]);
    expect(outputs).toEqual([
      { type: 'tool_call', id: 'toolu_task', name: 'Task', input: { prompt: 'x' } },
      expect.objectContaining({ context: { usedTokens: 1010, windowTokens: 1000000 } }),
    ]);
  });

  it('takes the largest window when the answering model is not listed, and codes failures', () => {
    const [error, finished] = feed([
      { type: 'system', subtype: 'init', model: 'sonnet' },
      {
        type: 'result',
        subtype: 'error_during_execution',
        is_error: true,
        errors: ['Request failed: 429 Too Many Requests', 7],
        usage: { input_tokens: 10, cache_read_input_tokens: 5, output_tokens: 1 },
        modelUsage: { a: { contextWindow: 100000 }, b: { contextWindow: 200000 } },
      },
    ]);
    expect(error).toEqual({
      type: 'error',
      code: 'rate_limited',
      message: 'Request failed: 429 Too Many Requests',
    });
    expect(finished).toMatchObject({
      status: 'failed',
      input_tokens: 15,
      output_tokens: 1,
      context: { usedTokens: 16, windowTokens: 200000 },
    });
    expect(feed([{ type: 'result', subtype: 'error_max_budget_usd', is_error: true }])[0]).toEqual({
      type: 'error',
      code: 'agent_failed',
      message: 'Claude Code ended the turn with error_max_budget_usd',
    });
  });
});

describe('claude-code plan', () => {
  it('starts turn 1 under the conversation id, the prompt and briefing on stdin', () => {
    const turn = turnSpec({ briefing: 'You are in a Sessionboxer box.' });
    expect(claudeCodeHarness.plan(turn, ctx, '/usr/local/bin/claude')).toEqual({
      argv: [
        '/usr/local/bin/claude',
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--mcp-config',
        '/workspace/.mcp.json',
        '--strict-mcp-config',
        '--permission-mode',
        'bypassPermissions',
        '--session-id',
        '6b0e2f4a-91c3-4d7e-8a55-0c2d9e7f1b38',
      ],
      env: {
        ANTHROPIC_API_KEY: 'sk-ant-api03-test',
        CLAUDE_CONFIG_DIR: '/workspace/.sessionboxer/claude',
        IS_SANDBOX: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
      stdin: 'You are in a Sessionboxer box.\n\n---\n\nAttach PR #42 to this session.',
    });
  });

  it('resumes the harness session on later turns and passes a chosen model', () => {
    const turn = turnSpec({
      turn: 3,
      model: 'opus',
      harnessSessionId: 'b51d7e3c-0a9f-4c26-8e14-7f3b2a6d9c05',
      env: { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-test', CLAUDE_CONFIG_DIR: '/root/.claude' },
    });
    const plan = claudeCodeHarness.plan(turn, ctx, 'claude');
    expect(plan.argv.slice(10)).toEqual([
      '--model',
      'opus',
      '--resume',
      'b51d7e3c-0a9f-4c26-8e14-7f3b2a6d9c05',
    ]);
    expect(plan.env).toEqual({
      CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-test',
      CLAUDE_CONFIG_DIR: '/workspace/.sessionboxer/claude',
      IS_SANDBOX: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    });
    expect(plan.stdin).toBe('Attach PR #42 to this session.');
    expect(plan.files).toBeUndefined();
  });

  it('starts a new session under the conversation id when no earlier turn reported one', () => {
    const plan = claudeCodeHarness.plan(turnSpec({ turn: 2 }), ctx, 'claude');
    expect(plan.argv.slice(-2)).toEqual(['--session-id', '6b0e2f4a-91c3-4d7e-8a55-0c2d9e7f1b38']);
  });

  it('is claude on PATH and needs an API key or an OAuth token', () => {
    expect(claudeCodeHarness.name).toBe('claude-code');
    expect(claudeCodeHarness.executable(ctx)).toBe('claude');
    expect(claudeCodeHarness.credentialEnv(turnSpec())).toEqual([
      'ANTHROPIC_API_KEY',
      'CLAUDE_CODE_OAUTH_TOKEN',
    ]);
  });
});
