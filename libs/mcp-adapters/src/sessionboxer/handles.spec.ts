import { ErrorCode } from '@sessionboxer/domain';
import { isToolCallError } from '../kit/call-error';
import { handleControlPlaneCall } from './registry';
import { prAttachTool } from './pr_attach';
import { uiOpenTool } from './ui_open';
import { ITEMS, PR, RecordingPort, TERMINALS, WHOAMI } from './test/recording-port';

let port: RecordingPort;
beforeEach(() => {
  port = new RecordingPort();
});

const call = (tool: string, args: unknown = {}) => handleControlPlaneCall(port, tool, args);

describe('each tool calls its port method and answers the spec shape', () => {
  it('whoami → whoami(), the session as the control plane sees it', async () => {
    await expect(call('whoami')).resolves.toEqual(WHOAMI);
    expect(port.calls).toEqual([{ method: 'whoami', args: [] }]);
  });

  it('settings_get → settings(), secret values removed (keys kept as null)', async () => {
    port.settingsValue = {
      defaults: { model: 'default' },
      github: { token: 'ghp_x', pollSeconds: 60 },
    };
    await expect(call('settings_get')).resolves.toEqual({
      defaults: { model: 'default' },
      github: { token: null, pollSeconds: 60 },
    });
    expect(port.calls).toEqual([{ method: 'settings', args: [] }]);
  });

  it('title_set → setTitle(trimmed title), { id, title }', async () => {
    await expect(call('title_set', { title: ' Backend tests, take 2 ' })).resolves.toEqual({
      id: WHOAMI.id,
      title: 'Backend tests, take 2',
    });
    expect(port.calls).toEqual([{ method: 'setTitle', args: ['Backend tests, take 2'] }]);
  });

  it('notify → notify(text), { ok: true }', async () => {
    await expect(call('notify', { text: 'CI is red; I need the staging token' })).resolves.toEqual({
      ok: true,
    });
    expect(port.calls).toEqual([
      { method: 'notify', args: ['CI is red; I need the staging token'] },
    ]);
  });

  it('queue_add → queueAdd(trimmed text, lines kept), { id, position }', async () => {
    const text = '  Now run the linter\nand fix what it finds  ';
    await expect(call('queue_add', { text })).resolves.toEqual({ id: 'prompt-1', position: 1 });
    expect(port.calls).toEqual([
      { method: 'queueAdd', args: ['Now run the linter\nand fix what it finds'] },
    ]);
  });

  it('queue_add refuses an empty or over-long text without calling the port', async () => {
    await expect(call('queue_add', { text: '   ' })).rejects.toThrow(/text must not be empty/);
    await expect(call('queue_add', { text: 'x'.repeat(20_001) })).rejects.toThrow(
      /at most 20000 characters/,
    );
    expect(port.calls).toEqual([]);
  });

  it('queue_list → queueList(), { prompts: [{ id, text, position, queuedAt, from }] }', async () => {
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
    expect(port.calls).toEqual([{ method: 'queueList', args: [] }]);
  });

  it('snapshot → snapshot(), { id, ordinal, sizeBytes, createdAt }', async () => {
    const result = await call('snapshot');
    expect(Object.keys(result as object).sort()).toEqual([
      'createdAt',
      'id',
      'ordinal',
      'sizeBytes',
    ]);
    expect(port.calls).toEqual([{ method: 'snapshot', args: [] }]);
  });

  it('pr_attach by URL → attachPr({ owner, repo, number }), the PR summary', async () => {
    const url = 'https://github.com/octo-org/api/pull/12/files';
    await expect(call('pr_attach', { url })).resolves.toEqual(PR);
    expect(port.calls).toEqual([
      { method: 'attachPr', args: [{ owner: 'octo-org', repo: 'api', number: 12 }] },
    ]);
  });

  it('pr_attach by repo and number → the same port call', async () => {
    await call('pr_attach', { repo: 'octo-org/api', number: 12 });
    expect(port.calls).toEqual([
      { method: 'attachPr', args: [{ owner: 'octo-org', repo: 'api', number: 12 }] },
    ]);
  });

  it('pr_list → listPrs(), an array of summaries', async () => {
    await expect(call('pr_list')).resolves.toEqual([PR]);
    expect(port.calls).toEqual([{ method: 'listPrs', args: [] }]);
  });

  it('pr_items → prItems(prId), { pr, items }', async () => {
    await expect(call('pr_items', { pr: 'octo-org/api#12' })).resolves.toEqual({
      pr: PR,
      items: ITEMS,
    });
    expect(port.calls).toEqual([{ method: 'prItems', args: ['octo-org/api#12'] }]);
  });

  it('pr_mark_addressed → markAddressed(prId, ids once each), { pr, items }', async () => {
    const result = await call('pr_mark_addressed', {
      pr: 'octo-org/api#12',
      itemIds: ['c1', 'c1'],
    });
    expect(result).toMatchObject({ pr: { id: PR.id }, items: [{ id: 'c1', addressed: true }] });
    expect(port.calls).toEqual([{ method: 'markAddressed', args: ['octo-org/api#12', ['c1']] }]);
  });

  it('terminal_list → terminals(), [{ id, createdAt, exitCode }]', async () => {
    await expect(call('terminal_list')).resolves.toEqual(TERMINALS);
    expect(port.calls).toEqual([{ method: 'terminals', args: [] }]);
  });

  it('terminal_read → readTerminal(id, lines), { id, text, exitCode }; lines defaults to 100', async () => {
    await expect(call('terminal_read', { id: 'term-1' })).resolves.toEqual({
      id: 'term-1',
      text: 'PASS 12 tests\n',
      exitCode: 0,
    });
    await call('terminal_read', { id: 'term-1', lines: 2000 });
    expect(port.calls).toEqual([
      { method: 'readTerminal', args: ['term-1', 100] },
      { method: 'readTerminal', args: ['term-1', 2000] },
    ]);
  });

  it('verify → verify(trimmed brief, cases or null), { id, status, cases }', async () => {
    await expect(
      call('verify', { brief: '  Check the login form\nand logout  ' }),
    ).resolves.toEqual({
      id: 'run-1',
      status: 'open',
      cases: [],
    });
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
    expect(port.calls).toEqual([
      { method: 'verify', args: ['Check the login form\nand logout', null] },
      { method: 'verify', args: ['Check it', ['Log in', 'Log out']] },
    ]);
  });

  it('ui_open → openUi(pane, terminal or null), { pane, terminalId, shown }', async () => {
    await expect(call('ui_open', { pane: 'prs' })).resolves.toEqual({
      pane: 'prs',
      terminalId: null,
      shown: true,
    });
    const withCommand = { pane: 'terminal', terminal: { command: 'npm run dev' } };
    await expect(call('ui_open', withCommand)).resolves.toMatchObject({ terminalId: 'term-2' });
    expect(port.calls).toEqual([
      { method: 'openUi', args: ['prs', null] },
      { method: 'openUi', args: ['terminal', { command: 'npm run dev' }] },
    ]);
  });
});

describe('the Other sessions tools call their port methods', () => {
  it('session_create → createSession(first_prompt, title?, provider?)', async () => {
    const args = { first_prompt: ' Fix the flaky test ', title: 'Flaky', provider: 'scripted' };
    await expect(call('session_create', args)).resolves.toMatchObject({
      pending: false,
      title: 'Child',
    });
    expect(port.calls).toEqual([
      {
        method: 'createSession',
        args: [{ first_prompt: 'Fix the flaky test', title: 'Flaky', provider: 'scripted' }],
      },
    ]);
  });

  it('session_message defaults when to now; session_wait and approval_wait default to 15 s', async () => {
    await call('session_message', { session: '5f2b8c1e', text: 'status?' });
    await call('session_wait', { session: '5f2b8c1e' });
    await call('approval_wait', { id: 'a1' });
    expect(port.calls).toEqual([
      { method: 'messageSession', args: ['5f2b8c1e', 'status?', 'now'] },
      { method: 'waitSession', args: ['5f2b8c1e', 15] },
      { method: 'waitApproval', args: ['a1', 15] },
    ]);
  });

  it('sessions_list, session_get and session_stop pass the session as given', async () => {
    await call('sessions_list');
    await call('session_get', { session: '5f2b8c1e' });
    await call('session_stop', { session: '5f2b8c1e-0000' });
    expect(port.calls.map((c) => [c.method, ...c.args])).toEqual([
      ['listSessions'],
      ['getSession', '5f2b8c1e'],
      ['stopSession', '5f2b8c1e-0000'],
    ]);
  });
});

describe('the gateway path refuses before the port is touched', () => {
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
  ])('%s', async (tool, args, code, message) => {
    const error: unknown = await call(tool, args).catch((e: unknown) => e);
    expect(isToolCallError(error) && error.code).toBe(code);
    expect((error as Error).message).toMatch(message);
    expect(port.calls).toEqual([]);
  });

  it('handle itself refuses what only the cross-field check catches', async () => {
    // A caller that validates with the bare shape (no parseCall) still cannot get past handle.
    await expect(prAttachTool.handle(port, { repo: 'o/r' })).rejects.toThrow(/number is required/);
    await expect(
      uiOpenTool.handle(port, { pane: 'prs', terminal: { command: 'ls' } }),
    ).rejects.toThrow(/only goes with pane "terminal"/);
    expect(port.calls).toEqual([]);
  });
});
