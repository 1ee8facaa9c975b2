import { ErrorCode } from '@sessionboxer/domain';
import { isToolCallError } from '../kit/call-error';
import { prTarget } from './pr_attach';
import { controlPlaneTools, parseControlPlaneCall } from './registry';
import {
  ANSWERS,
  ITEMS,
  PR,
  sessionboxerDouble,
  TERMINALS,
  WHOAMI,
} from './test/recording-handlers';

/**
 * What reaches a tool's handler on the control plane: the arguments as the gateway's parser
 * gives them (trimmed, defaults filled in, each id once), and the result in the spec's shape.
 * The handlers themselves (commands and queries) are run end to end in the control plane's
 * tests; here the double generated from the registry stands in for them.
 */
let fake: ReturnType<typeof sessionboxerDouble>;
beforeEach(() => {
  fake = sessionboxerDouble();
});

const call = (tool: string, args: unknown = {}) => fake.call(tool, args);

describe('each tool reaches its handler with its parsed arguments', () => {
  it('the double answers every tool the control plane answers', () => {
    expect(controlPlaneTools.map((t) => t.name).filter((n) => !ANSWERS[n])).toEqual([]);
    expect(fake.handlers.missing()).toEqual([]);
  });

  it('whoami: no arguments, the session as the control plane sees it', async () => {
    await expect(call('whoami')).resolves.toEqual(WHOAMI);
    expect(fake.calls).toEqual([{ tool: 'whoami', args: {} }]);
  });

  it('title_set: the trimmed title, { id, title }', async () => {
    await expect(call('title_set', { title: ' Backend tests, take 2 ' })).resolves.toEqual({
      id: WHOAMI.id,
      title: 'Backend tests, take 2',
    });
    expect(fake.calls).toEqual([{ tool: 'title_set', args: { title: 'Backend tests, take 2' } }]);
  });

  it('notify: the text, { ok: true }', async () => {
    await expect(call('notify', { text: 'CI is red; I need the staging token' })).resolves.toEqual({
      ok: true,
    });
    expect(fake.calls).toEqual([
      { tool: 'notify', args: { text: 'CI is red; I need the staging token' } },
    ]);
  });

  it('queue_add: the text trimmed, lines kept, { id, position }', async () => {
    const text = '  Now run the linter\nand fix what it finds  ';
    await expect(call('queue_add', { text })).resolves.toEqual({ id: 'prompt-1', position: 1 });
    expect(fake.calls).toEqual([
      { tool: 'queue_add', args: { text: 'Now run the linter\nand fix what it finds' } },
    ]);
  });

  it('queue_add refuses an empty or over-long text before its handler runs', async () => {
    await expect(call('queue_add', { text: '   ' })).rejects.toThrow(/text must not be empty/);
    await expect(call('queue_add', { text: 'x'.repeat(20_001) })).rejects.toThrow(
      /at most 20000 characters/,
    );
    expect(fake.calls).toEqual([]);
  });

  it('queue_list: { prompts: [{ id, text, position, queuedAt, from }] }', async () => {
    const { prompts } = (await call('queue_list')) as { prompts: object[] };
    expect(prompts).toEqual([
      {
        id: 'prompt-1',
        text: 'Now run the linter',
        position: 1,
        queuedAt: '2026-01-01T00:00:00.000Z',
        from: { kind: 'agent', sessionId: WHOAMI.id },
      },
    ]);
  });

  it('snapshot: { id, ordinal, sizeBytes, createdAt }', async () => {
    const result = await call('snapshot');
    expect(Object.keys(result as object).sort()).toEqual([
      'createdAt',
      'id',
      'ordinal',
      'sizeBytes',
    ]);
    expect(fake.calls).toEqual([{ tool: 'snapshot', args: {} }]);
  });

  it('pr_attach by URL or by repo and number names the same PR', async () => {
    const url = 'https://github.com/octo-org/api/pull/12/files';
    await expect(call('pr_attach', { url })).resolves.toEqual(PR);
    await call('pr_attach', { repo: 'octo-org/api', number: 12 });
    const targets = fake.calls.map((c) => prTarget(c.args));
    const pr = { owner: 'octo-org', repo: 'api', number: 12 };
    expect(targets).toEqual([pr, pr]);
  });

  it('pr_list and pr_items: the summaries, { pr, items }', async () => {
    await expect(call('pr_list')).resolves.toEqual([PR]);
    await expect(call('pr_items', { pr: 'octo-org/api#12' })).resolves.toEqual({
      pr: PR,
      items: ITEMS,
    });
    expect(fake.calls[1]).toEqual({ tool: 'pr_items', args: { pr: 'octo-org/api#12' } });
  });

  it('pr_mark_addressed: the PR and each item id once, { pr, items }', async () => {
    const result = await call('pr_mark_addressed', {
      pr: 'octo-org/api#12',
      itemIds: ['c1', 'c1'],
    });
    expect(result).toMatchObject({ pr: { id: PR.id }, items: [{ id: 'c1', addressed: true }] });
    expect(fake.calls).toEqual([
      { tool: 'pr_mark_addressed', args: { pr: 'octo-org/api#12', itemIds: ['c1'] } },
    ]);
  });

  it('terminal_list: [{ id, createdAt, exitCode }]', async () => {
    await expect(call('terminal_list')).resolves.toEqual(TERMINALS);
  });

  it('terminal_read: id and lines (100 unless given), { id, text, exitCode }', async () => {
    await expect(call('terminal_read', { id: 'term-1' })).resolves.toEqual({
      id: 'term-1',
      text: 'PASS 12 tests\n',
      exitCode: 0,
    });
    await call('terminal_read', { id: 'term-1', lines: 2000 });
    expect(fake.calls.map((c) => c.args)).toEqual([
      { id: 'term-1', lines: 100 },
      { id: 'term-1', lines: 2000 },
    ]);
  });

  it('verify: the trimmed brief and cases, { id, status, cases }', async () => {
    await expect(
      call('verify', { brief: '  Check the login form\nand logout  ' }),
    ).resolves.toEqual({ id: 'run-1', status: 'open', cases: [] });
    await expect(
      call('verify', { brief: 'Check it', cases: [' Log in ', 'Log out'] }),
    ).resolves.toEqual({
      id: 'run-1',
      status: 'running',
      cases: [
        { index: 1, title: 'Log in', status: 'pending' },
        { index: 2, title: 'Log out', status: 'pending' },
      ],
    });
    expect(fake.calls.map((c) => c.args)).toEqual([
      { brief: 'Check the login form\nand logout' },
      { brief: 'Check it', cases: ['Log in', 'Log out'] },
    ]);
  });

  it('ui_open: the pane, and the terminal only with the terminal pane', async () => {
    await expect(call('ui_open', { pane: 'prs' })).resolves.toEqual({
      pane: 'prs',
      terminalId: null,
      shown: true,
    });
    const withCommand = { pane: 'terminal', terminal: { command: 'npm run dev' } };
    await expect(call('ui_open', withCommand)).resolves.toMatchObject({ terminalId: 'term-2' });
    expect(fake.calls.map((c) => c.args)).toEqual([{ pane: 'prs' }, withCommand]);
  });
});

describe('the Other sessions tools reach their handlers', () => {
  it('session_create: first_prompt trimmed, title, provider and repos as given (repos: [])', async () => {
    const args = { first_prompt: ' Fix the flaky test ', title: 'Flaky', provider: 'scripted' };
    await expect(call('session_create', args)).resolves.toMatchObject({
      pending: false,
      title: 'Child',
    });
    await call('session_create', { first_prompt: 'x', repos: ['app', 'api.v2'] });
    expect(fake.calls).toEqual([
      {
        tool: 'session_create',
        args: {
          first_prompt: 'Fix the flaky test',
          title: 'Flaky',
          provider: 'scripted',
          repos: [],
        },
      },
      { tool: 'session_create', args: { first_prompt: 'x', repos: ['app', 'api.v2'] } },
    ]);
  });

  it('session_message defaults when to now; session_wait and approval_wait default to 15 s', async () => {
    await call('session_message', { session: '5f2b8c1e', text: 'status?' });
    await call('session_wait', { session: '5f2b8c1e' });
    await call('approval_wait', { id: 'a1' });
    expect(fake.calls).toEqual([
      { tool: 'session_message', args: { session: '5f2b8c1e', text: 'status?', when: 'now' } },
      { tool: 'session_wait', args: { session: '5f2b8c1e', timeout_seconds: 15 } },
      { tool: 'approval_wait', args: { id: 'a1', timeout_seconds: 15 } },
    ]);
  });

  it('sessions_list, session_get and session_stop pass the session as given', async () => {
    await call('sessions_list');
    await call('session_get', { session: '5f2b8c1e' });
    await call('session_stop', { session: '5f2b8c1e-0000' });
    expect(fake.calls).toEqual([
      { tool: 'sessions_list', args: {} },
      { tool: 'session_get', args: { session: '5f2b8c1e' } },
      { tool: 'session_stop', args: { session: '5f2b8c1e-0000' } },
    ]);
  });
});

describe('the gateway path refuses before any handler runs', () => {
  it.each([
    ['docs', { query: 'snapshots' }, ErrorCode.NotFound, /answered inside the box/],
    ['schedule_delete', {}, ErrorCode.NotFound, /there is no sessionboxer tool "schedule_delete"/],
    ['schedule_create', {}, ErrorCode.ValidationFailed, /cron is required/],
    ['session_create', {}, ErrorCode.ValidationFailed, /first_prompt is required/],
    [
      'session_wait',
      { session: 'abc123', timeout_seconds: 21 },
      ErrorCode.ValidationFailed,
      /timeout_seconds must be at most 20/,
    ],
    ['pr_attach', { repo: 'o/r' }, ErrorCode.ValidationFailed, /number is required with repo/],
    [
      'ui_open',
      { pane: 'prs', terminal: { command: 'ls' } },
      ErrorCode.ValidationFailed,
      /only goes with pane "terminal"/,
    ],
  ])('%s', async (tool, args, code, message) => {
    const error: unknown = await call(tool, args).catch((e: unknown) => e);
    expect(isToolCallError(error) && error.code).toBe(code);
    expect((error as Error).message).toMatch(message);
    expect(fake.calls).toEqual([]);
  });

  it('prTarget itself refuses what only the cross-field check catches', () => {
    // A handler given arguments that skipped the parser still cannot name a half PR.
    expect(() => prTarget({ repo: 'o/r' })).toThrow(/number is required/);
    expect(() => parseControlPlaneCall('ui_open', { pane: 'prs', terminal: {} })).toThrow(
      /command/,
    );
  });
});
