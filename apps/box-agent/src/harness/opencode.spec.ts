import { CLEAN_EXIT, replayer, turnContext, turnSpecFor } from './test/stream-replay';
import { openCodeHarness } from './opencode';

const turnSpec = turnSpecFor('opencode', 'c0a8f3e2-5b71-4d9c-8e26-1f4b7d3a9c50');
const ctx = turnContext('/tmp/sessionboxer-turn-7', {
  desktop: {
    command: '/usr/bin/node',
    args: ['/opt/sessionboxer/box-agent/desktop-mcp.js'],
    env: { DISPLAY: ':1' },
  },
  sessionboxer: {
    command: '/usr/bin/node',
    args: ['/opt/sessionboxer/box-agent/sessionboxer-mcp.js', '--stdio'],
    env: {},
  },
});
const { feed, replay } = replayer(openCodeHarness, turnSpec());

const step = (reason: string, input = 10, output = 5) => ({
  type: 'step_finish',
  sessionID: 'ses_1',
  part: { type: 'step-finish', reason, tokens: { input, output, reasoning: 0, cache: {} } },
});

describe('opencode stream', () => {
  it('finishes a plain answer when the CLI exits 0 after its last step (no done line)', () => {
    expect(replay('opencode-text.jsonl')).toEqual([
      { type: 'harness_session', id: 'ses_4a1f3c2b9ffeQ7mXk2LpR8vTzN' },
      {
        type: 'message',
        text:
          'Use `git rebase -i HEAD~3` and mark the commits you want to combine with `squash` (or ' +
          '`fixup` to drop their messages). Save, edit the combined message, then ' +
          '`git push --force-with-lease` if the branch was already pushed.',
      },
      {
        type: 'turn_finished',
        status: 'finished',
        input_tokens: 13929,
        output_tokens: 68,
        usage: null,
        context: { usedTokens: 13997, windowTokens: null },
        cost_usd: 0.05325225,
      },
    ]);
  });

  it('maps MCP calls, a failed call and an image attachment, and ends the turn at done', () => {
    const outputs = replay('opencode-mcp-tools.jsonl');
    expect(outputs).toEqual([
      { type: 'harness_session', id: 'ses_49c8e17d3ffeK4nWq8RtY2mZbP' },
      { type: 'message', text: "I'll check this session, then attach the PR." },
      {
        type: 'tool_call',
        id: 'toolu_01Qm7Xc4Vb9Nt2Rw5Ky8Lp3D',
        name: 'sessionboxer_whoami',
        input: {},
      },
      {
        type: 'tool_result',
        id: 'toolu_01Qm7Xc4Vb9Nt2Rw5Ky8Lp3D',
        output: expect.stringMatching(
          /^\{\n {2}"id": "s_7Kq2mP9xV4",[\s\S]*\}\n\nThe person has the chat and desktop panes open\.$/,
        ),
        error: false,
      },
      {
        type: 'tool_call',
        id: 'toolu_01Hs4Kd8Wn2Yq6Tc9Vm3Bx7F',
        name: 'sessionboxer_pr_attach',
        input: { repo: 'acme/api', number: '42' },
      },
      {
        type: 'tool_result',
        id: 'toolu_01Hs4Kd8Wn2Yq6Tc9Vm3Bx7F',
        output: expect.stringMatching(
          /^MCP error -32602: Input validation error: Invalid arguments for tool pr_attach: \[\n/,
        ),
        error: true,
      },
      {
        type: 'tool_call',
        id: 'toolu_01Bv6Lt3Zq8Mx5Wn1Kc4Rj9G',
        name: 'sessionboxer_pr_attach',
        input: { repo: 'acme/api', number: 42 },
      },
      {
        type: 'tool_result',
        id: 'toolu_01Bv6Lt3Zq8Mx5Wn1Kc4Rj9G',
        output: expect.stringContaining('"title": "Fix login redirect"'),
        error: false,
      },
      {
        type: 'tool_call',
        id: 'toolu_01Nw2Pz7Kc5Vt9Qm3Xb6Ly4H',
        name: 'desktop_screenshot',
        input: {},
      },
      {
        type: 'tool_result',
        id: 'toolu_01Nw2Pz7Kc5Vt9Qm3Xb6Ly4H',
        output: 'Screenshot of display :1 at 1024x768.\n[image]',
        error: false,
      },
      {
        type: 'message',
        text:
          'Attached PR #42 (acme/api, "Fix login redirect") to session **Backend tests**; its ' +
          'checks are green so far, one still running. The desktop shows the login page of the app.',
      },
      {
        type: 'turn_finished',
        status: 'finished',
        input_tokens: 99323,
        output_tokens: 286,
        usage: null,
        context: { usedTokens: 35026, windowTokens: null },
        cost_usd: 0.05592555,
      },
    ]);
  });

  it('fails a rejected key with credentials_invalid and the API message', () => {
    expect(replay('opencode-auth-error.jsonl', { code: 1, signal: null, stderr: '' })).toEqual([
      { type: 'harness_session', id: 'ses_4a0b6d2e8ffeR5tYu9Io3PaSdF' },
      { type: 'error', code: 'credentials_invalid', message: 'invalid x-api-key' },
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

  it('after a kill mid-turn owes an error naming the signal, then a failed turn', () => {
    const outputs = replay('opencode-crash.jsonl', { code: null, signal: 'SIGKILL', stderr: '' });
    expect(outputs).toEqual([
      { type: 'harness_session', id: 'ses_49f3a7c1bffeW2eRt6Yu8IoPlK' },
      { type: 'message', text: 'Running the test suite first.' },
      {
        type: 'tool_call',
        id: 'toolu_01Kx5Rw8Tn3Vq6Zm9Lb2Yc4P',
        name: 'bash',
        input: { command: 'npm test', description: 'Runs the test suite' },
      },
      {
        type: 'tool_result',
        id: 'toolu_01Kx5Rw8Tn3Vq6Zm9Lb2Yc4P',
        output:
          '\n> api@1.4.0 test\n> jest\n\n PASS  src/users/users.service.spec.ts\n' +
          ' PASS  src/auth/auth.controller.spec.ts\n\nTests:       38 passed, 38 total\n' +
          'Time:        5.871 s\n',
        error: false,
      },
      {
        type: 'error',
        code: 'agent_failed',
        message:
          "OpenCode was killed by SIGKILL before reporting the turn's result. It wrote nothing to stderr.",
      },
      {
        type: 'turn_finished',
        status: 'failed',
        input_tokens: 0,
        output_tokens: 0,
        usage: null,
        context: { usedTokens: 14772, windowTokens: null },
      },
    ]);
  });

  it('treats an exit after a step that asked for tools, or a failing exit code, as a crash', () => {
    const stderr =
      'INFO  service=mcp key=desktop found\nError: Session not found\n    at run (run.ts:212)\n';
    const [, afterTools] = feed([step('tool-calls')], CLEAN_EXIT);
    expect(afterTools).toEqual({
      type: 'error',
      code: 'agent_failed',
      message:
        "OpenCode exited with code 0 before reporting the turn's result. It wrote nothing to stderr.",
    });
    const [, failing] = feed([step('stop')], { code: 1, signal: null, stderr });
    expect(failing).toEqual({
      type: 'error',
      code: 'agent_failed',
      message:
        "OpenCode exited with code 1 before reporting the turn's result. Last lines of stderr:\n" +
        'INFO  service=mcp key=desktop found\nError: Session not found\n    at run (run.ts:212)',
    });
  });

  it('codes error events by name, HTTP status and text', () => {
    const error = (name: string, data: object) => ({
      type: 'error',
      sessionID: 'ses_1',
      error: { name, data },
    });
    const outputs = feed([
      error('ProviderAuthError', { providerID: 'anthropic', message: 'API key is missing' }),
      error('APIError', { message: 'Too many requests', statusCode: 429, isRetryable: true }),
      error('APIError', { message: 'Overloaded', isRetryable: true }),
      error('UnknownError', { message: 'ENOSPC: no space left on device, write' }),
      { type: 'error', sessionID: 'ses_1', error: { name: 'MessageOutputLengthError', data: {} } },
      { type: 'done', sessionID: 'ses_1', reason: 'idle', rejected: [] },
    ]);
    expect(outputs).toEqual([
      { type: 'harness_session', id: 'ses_1' },
      { type: 'error', code: 'credentials_invalid', message: 'API key is missing' },
      { type: 'error', code: 'rate_limited', message: 'Too many requests' },
      { type: 'error', code: 'rate_limited', message: 'Overloaded' },
      { type: 'error', code: 'agent_failed', message: 'ENOSPC: no space left on device, write' },
      { type: 'error', code: 'agent_failed', message: 'MessageOutputLengthError' },
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

  it('ignores lines that are not JSON objects or not of a known shape, and counts reasoning', () => {
    const outputs = feed([
      'Performing one time database migration, may take a few minutes...',
      '{"type":"text","part":',
      '"text"',
      { type: 'reasoning', part: { type: 'reasoning', text: 'hmm' } },
      { type: 'text', part: { type: 'text', text: '   \n' } },
      { type: 'text', part: { type: 'text', text: 'from the tool', synthetic: true } },
      { type: 'tool_use', part: { callID: 'x', tool: 'bash', state: { status: 'running' } } },
      { type: 'tool_use', part: { tool: 'bash', state: { status: 'completed', output: 'x' } } },
      {
        type: 'step_finish',
        part: { reason: 'stop', tokens: { input: 'many', output: 3, reasoning: 4 } },
      },
      { type: 'session.updated', properties: {} },
    ]);
    expect(outputs).toEqual([
      {
        type: 'turn_finished',
        status: 'finished',
        input_tokens: 0,
        output_tokens: 7,
        usage: null,
        context: { usedTokens: 3, windowTokens: null },
      },
    ]);
  });

  it('reports the session once and reads nothing after done', () => {
    const outputs = feed([
      step('stop'),
      step('stop'),
      { type: 'done', sessionID: 'ses_1', reason: 'idle', rejected: [] },
      { type: 'text', sessionID: 'ses_1', part: { type: 'text', text: 'late' } },
      { type: 'done', sessionID: 'ses_1', reason: 'idle', rejected: [] },
    ]);
    expect(outputs).toEqual([
      { type: 'harness_session', id: 'ses_1' },
      expect.objectContaining({ type: 'turn_finished', status: 'finished', input_tokens: 20 }),
    ]);
  });
});

describe('opencode plan', () => {
  it('runs opencode with a generated config listing the box MCP servers, prompt on stdin', () => {
    const turn = turnSpec({ briefing: 'You are in a Sessionboxer box.' });
    const plan = openCodeHarness.plan(turn, ctx, '/usr/local/bin/opencode');
    const configPath = '/tmp/sessionboxer-turn-7/opencode.json';
    expect(plan.argv).toEqual(['/usr/local/bin/opencode', 'run', '--format', 'json']);
    expect(plan.env).toEqual({
      ANTHROPIC_API_KEY: 'sk-ant-api03-test',
      OPENCODE_CONFIG: configPath,
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      XDG_DATA_HOME: '/workspace/.sessionboxer/opencode/data',
      XDG_CONFIG_HOME: '/workspace/.sessionboxer/opencode/config',
      XDG_CACHE_HOME: '/workspace/.sessionboxer/opencode/cache',
      XDG_STATE_HOME: '/workspace/.sessionboxer/opencode/state',
    });
    expect(plan.stdin).toBe(
      'You are in a Sessionboxer box.\n\n---\n\nAttach PR #42 to this session.',
    );
    expect(Object.keys(plan.files ?? {})).toEqual([configPath]);
    expect(JSON.parse(plan.files?.[configPath] ?? '')).toEqual({
      $schema: 'https://opencode.ai/config.json',
      mcp: {
        desktop: {
          type: 'local',
          command: ['/usr/bin/node', '/opt/sessionboxer/box-agent/desktop-mcp.js'],
          environment: { DISPLAY: ':1' },
          enabled: true,
        },
        sessionboxer: {
          type: 'local',
          command: ['/usr/bin/node', '/opt/sessionboxer/box-agent/sessionboxer-mcp.js', '--stdio'],
          environment: {},
          enabled: true,
        },
      },
      permission: 'allow',
    });
  });

  it('continues the harness session and passes a chosen model; a long prompt stays on stdin', () => {
    const prompt = 'x'.repeat(262_144);
    const turn = turnSpec({
      turn: 2,
      prompt,
      model: 'anthropic/claude-sonnet-4-5',
      harnessSessionId: 'ses_49c8e17d3ffeK4nWq8RtY2mZbP',
    });
    const plan = openCodeHarness.plan(turn, ctx, 'opencode');
    expect(plan.argv).toEqual([
      'opencode',
      'run',
      '--format',
      'json',
      '--model',
      'anthropic/claude-sonnet-4-5',
      '--session',
      'ses_49c8e17d3ffeK4nWq8RtY2mZbP',
    ]);
    expect(plan.stdin).toBe(prompt);
    expect(plan.env.OPENCODE_CONFIG).toBe('/tmp/sessionboxer-turn-7/opencode.json');
  });

  it("points the providers it was given a base URL for at it (the edge's relays)", () => {
    const env = {
      ANTHROPIC_API_KEY: 'sessionboxer-placeholder',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:7001/provider/anthropic',
      OPENAI_BASE_URL: 'http://127.0.0.1:7001/provider/openai/v1',
    };
    const plan = openCodeHarness.plan(turnSpec({ env }), ctx, 'opencode');
    const config = JSON.parse(Object.values(plan.files ?? {})[0] ?? '');
    expect(config.provider).toEqual({
      anthropic: { options: { baseURL: 'http://127.0.0.1:7001/provider/anthropic/v1' } },
      openai: { options: { baseURL: 'http://127.0.0.1:7001/provider/openai/v1' } },
    });
    expect(plan.env).toMatchObject(env);
  });

  it('is opencode on PATH and needs one of the providers’ keys', () => {
    expect(openCodeHarness.name).toBe('opencode');
    expect(openCodeHarness.executable(ctx)).toBe('opencode');
    expect(openCodeHarness.credentialEnv(turnSpec())).toEqual([
      'ANTHROPIC_API_KEY',
      'OPENAI_API_KEY',
      'OPENROUTER_API_KEY',
    ]);
    // OpenCode's own models run on no key of the user's.
    expect(openCodeHarness.credentialEnv(turnSpec({ model: 'opencode/grok-code' }))).toEqual([]);
  });
});
