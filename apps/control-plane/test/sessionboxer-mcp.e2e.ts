import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { e2eTools, sessionboxerTools } from '@sessionboxer/mcp-adapters';
import WebSocket from 'ws';
import { GitHubDouble } from './github-double/github-double';
import { call, callError, mcpClientInBox, waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

const TOKEN = 'ghp_e2eTestToken0123456789abcdefABCDEF';

describe('a session with a real box: the sessionboxer MCP server from .mcp.json, end to end', () => {
  let github: GitHubDouble;
  let api: RunningApp;
  let sessionId: string;
  let workspace: string;
  let client: Client;

  const markers = async (): Promise<string[]> =>
    (await api.request('GET', `/api/sessions/${sessionId}/transcript?limit=500`)).body.entries
      .map((e: any) => e.marker)
      .map((m: { text: string }) => m.text);

  beforeAll(async () => {
    github = await GitHubDouble.start();
    github.requireToken(TOKEN);
    github.addPr({ owner: 'acme', repo: 'widgets', number: 12, title: 'Add widgets' });
    github.addReviewComment(
      { owner: 'acme', repo: 'widgets', number: 12 },
      { body: 'Please rename this', path: 'src/a.ts', line: 3, author: 'rev' },
    );
    github.setCheck(
      { owner: 'acme', repo: 'widgets', number: 12 },
      { name: 'ci', conclusion: 'failure' },
    );
    process.env.SESSIONBOXER_GITHUB_API_URL = github.url;
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    await api.request('PATCH', '/api/settings', { github: { token: TOKEN } });
    const created = await api.request('POST', '/api/sessions', { title: 'Boxed session' });
    expect(created.status).toBe(201);
    sessionId = created.body.id;
    const session = await waitForBox(api, sessionId);
    workspace = session.box.workspacePath;
    expect(session.box.mcpJsonPath).toBe(path.join(workspace, '.mcp.json'));
    client = await mcpClientInBox(api, sessionId);
  });

  afterAll(async () => {
    await client?.close();
    await api?.close();
    await github?.close();
    delete process.env.SESSIONBOXER_GITHUB_API_URL;
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('lists every tool of this release, with annotations', async () => {
    const { tools } = await client.listTools();
    // The registries' own specs pin the names; this checks the box's server lists them all.
    const expected = [...sessionboxerTools, ...e2eTools].map((t) => t.name);
    expect(tools.map((t) => t.name).sort()).toEqual(expected.sort());
    expect(tools).toHaveLength(30);
    expect(tools.find((t) => t.name === 'whoami')?.annotations?.readOnlyHint).toBe(true);
  });

  it('whoami answers the live session with every field of the spec', async () => {
    const me = await call(client, 'whoami');
    expect(me).toMatchObject({
      id: sessionId,
      title: 'Boxed session',
      environment: 'docker-linux',
      guest: null,
      snapshotCount: 0,
      agentTools: 'session',
      terminals: [],
      prs: [],
    });
    expect(me.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/sessions/${sessionId}$`));
    for (const field of [
      'provider',
      'model',
      'createdAt',
      'forkedFrom',
      'createdBy',
      'branch',
      'sessionboxerVersion',
      'status',
      'usage',
      'context',
      'queueLength',
      'panes',
      'verification',
      'repos',
    ]) {
      expect(me).toHaveProperty(field);
    }
  });

  it('docs searches the guide shipped in the box', async () => {
    const answer = await call(client, 'docs', { query: 'snapshot revert workspace' });
    expect(answer.sections.length).toBeGreaterThan(0);
    expect(answer.sections[0].heading).toMatch(/snapshot/i);
    expect(answer.sections[0].path.endsWith(answer.sections[0].heading)).toBe(true);
    const none = await call(client, 'docs', { query: 'zyxxyq qqqzz' });
    expect(none.sections).toEqual([]);
    expect(none.headings).toContain(answer.sections[0].heading);
    expect(answer.sections[0].text.length).toBeLessThanOrEqual(6000);
  });

  it('settings_get never lets a secret leave the control plane', async () => {
    const settings = await call(client, 'settings_get');
    expect(JSON.stringify(settings)).not.toContain(TOKEN);
    expect(settings.sessionboxer.agentTools).toBe('session');
  });

  it('title_set renames the session: event, marker, and the box’s session.json', async () => {
    const renamed = await call(client, 'title_set', { title: 'Renamed by the agent' });
    expect(renamed).toEqual({ id: sessionId, title: 'Renamed by the agent' });
    expect(await markers()).toContain('renamed the Session to “Renamed by the agent”');
    const file = path.join(workspace, '.sessionboxer/session.json');
    await waitFor(
      'session.json to follow the rename',
      () => JSON.parse(fs.readFileSync(file, 'utf8')).title === 'Renamed by the agent',
    );
    const events = (await api.request('GET', `/api/streams/session-${sessionId}/events`)).body
      .events;
    const rename = events.find((e: { type: string }) => e.type === 'SessionTitleSet');
    expect(rename.metadata.actor).toEqual({ kind: 'agent', sessionId });
  });

  it('notify reaches the bell and leaves a marker', async () => {
    expect(await call(client, 'notify', { text: 'Tests are green' })).toEqual({ ok: true });
    const bell = (await api.request('GET', `/api/sessions/${sessionId}/notifications`)).body
      .notifications;
    expect(bell.map((n: { text: string }) => n.text)).toContain('Tests are green');
    expect(await markers()).toContain('notified you: Tests are green');
  });

  it('snapshot numbers snapshots of the workspace, and the admin API reverts to one', async () => {
    fs.writeFileSync(path.join(workspace, 'kept.txt'), 'before');
    const snap = await call(client, 'snapshot');
    expect(snap).toMatchObject({
      ordinal: 1,
      id: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(snap.sizeBytes).toBeGreaterThan(0);
    expect(await markers()).toContain('took Snapshot 1');
    fs.writeFileSync(path.join(workspace, 'kept.txt'), 'after');
    fs.writeFileSync(path.join(workspace, 'new.txt'), 'new');
    const list = (await api.request('GET', `/api/sessions/${sessionId}/snapshots`)).body;
    expect(list.map((s: { id: string }) => s.id)).toEqual([snap.id]);
    expect(
      (await api.request('POST', `/api/sessions/${sessionId}/snapshots/${snap.id}/revert`)).status,
    ).toBe(201);
    expect(fs.readFileSync(path.join(workspace, 'kept.txt'), 'utf8')).toBe('before');
    expect(fs.existsSync(path.join(workspace, 'new.txt'))).toBe(false);
    await waitForBox(api, sessionId);
    expect((await call(client, 'whoami')).snapshotCount).toBe(1);
  });

  it('pr_attach, pr_list, pr_items and pr_mark_addressed work against the forge', async () => {
    const pr = await call(client, 'pr_attach', { url: 'https://github.com/acme/widgets/pull/12' });
    expect(pr).toMatchObject({
      id: 'acme/widgets#12',
      title: 'Add widgets',
      state: 'open',
      checks: { failed: 1 },
      unaddressed: 1,
    });
    expect(await markers()).toContain('attached PR #12 (acme/widgets)');
    expect((await call(client, 'pr_list')).map((p: { id: string }) => p.id)).toEqual([
      'acme/widgets#12',
    ]);
    const { items } = await call(client, 'pr_items', { pr: 'acme/widgets#12' });
    const comment = items.find((i: { kind: string }) => i.kind === 'review_comment');
    expect(comment).toMatchObject({
      body: 'Please rename this',
      path: 'src/a.ts',
      line: 3,
      addressed: false,
    });
    const after = await call(client, 'pr_mark_addressed', {
      pr: 'acme/widgets#12',
      itemIds: [comment.id],
    });
    expect(after.pr.unaddressed).toBe(0);
    expect(await callError(client, 'pr_items', { pr: 'acme/other#1' })).toMatch(/not attached/);
  });

  it('ui_open runs a command in a real Terminal of the box; terminal_list and terminal_read show it', async () => {
    const opened = await call(client, 'ui_open', {
      pane: 'terminal',
      terminal: { command: 'echo "hello from $(hostname)"; exit 3' },
    });
    expect(opened).toMatchObject({
      pane: 'terminal',
      shown: false,
      terminalId: expect.any(String),
    });
    const done = await waitFor('the terminal to exit', async () => {
      const list = await call(client, 'terminal_list');
      return list.find(
        (t: { id: string; exitCode: number | null }) =>
          t.id === opened.terminalId && t.exitCode !== null,
      );
    });
    expect(done.exitCode).toBe(3);
    const read = await call(client, 'terminal_read', { id: opened.terminalId, lines: 20 });
    expect(read.text).toMatch(/hello from box-/);
    expect(await markers()).toContainEqual(expect.stringMatching(/^opened a Terminal running/));
  });

  it('ui_open shows a pane only to a browser on this session that is not typing', async () => {
    const ui = new WebSocket(api.url.replace('http', 'ws') + '/api/ui', {
      headers: api.authHeaders,
    });
    const frames: { event: string; data: any }[] = [];
    ui.on('message', (m) => frames.push(JSON.parse((m as Buffer).toString())));
    await new Promise((r) => ui.once('open', r));
    ui.send(JSON.stringify({ event: 'watch', data: { sessionId } }));
    await waitFor('watching', () => frames.find((f) => f.event === 'watching'));
    ui.send(JSON.stringify({ event: 'typing', data: { typing: true } }));
    await new Promise((r) => setTimeout(r, 50));
    expect((await call(client, 'ui_open', { pane: 'prs' })).shown).toBe(false);
    ui.send(JSON.stringify({ event: 'typing', data: { typing: false } }));
    await new Promise((r) => setTimeout(r, 50));
    expect((await call(client, 'ui_open', { pane: 'prs' })).shown).toBe(true);
    expect(frames.find((f) => f.event === 'pane')?.data).toEqual({
      sessionId,
      pane: 'prs',
      terminalId: null,
    });
    expect(await markers()).toContain('opened the PRs pane');
    ui.close();
  });

  it('refuses bad arguments with a tool error that names the field, and changes nothing', async () => {
    expect(await callError(client, 'title_set', { title: '' })).toMatch(/title/);
    expect(await callError(client, 'terminal_read', { id: 'x', lines: 0 })).toMatch(/lines/);
    expect(await callError(client, 'pr_attach', { url: 'https://example.com/x' })).toMatch(/url/);
    const { snapshotCount } = await call(client, 'whoami');
    expect(await callError(client, 'snapshot', { bogus: true })).toMatch(
      /bogus is not a parameter of this tool \(it takes no parameters\)/,
    );
    expect(await call(client, 'whoami')).toMatchObject({
      title: 'Renamed by the agent',
      snapshotCount,
    });
  });
});
