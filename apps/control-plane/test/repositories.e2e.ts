import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { LocalBoxDriver } from '../src/boxes/driver';
import { BOX_DRIVER } from '../src/infrastructure/tokens';
import { runInBox } from '../src/repositories/box-git';
import { forgeAuthorization } from '../src/repositories/host-git';
import { boxEnvirons, filesHolding } from './agent/box-secrets-kit';
import { call, mcpClientInBox, waitFor, waitForBox } from './box-kit';
import { startGitHttpDouble, type GitHttpDouble } from './doubles/git-http-server';
import { startApp, type RunningApp } from './harness';

const TOKEN = 'ghp_e2eRepoToken0123456789abcdefghij';
jest.setTimeout(120_000);

/**
 * Sessions on a repository, with real boxes and real git: the clone on the session's branch,
 * what the session knows of it, a push from inside the box through the edge's git relay to the
 * forge double (which checks the token the box never holds), the diff, and a fork.
 */
describe('repositories in sessions', () => {
  let api: RunningApp;
  let forge: GitHttpDouble;
  let sessionId: string;
  let branch: string;
  let workspace: string;
  let client: Client;
  const inBox = async (id: string, argv: string[], cwd = '/workspace/app') => {
    const driver = api.app.get<LocalBoxDriver>(BOX_DRIVER);
    return runInBox(driver, id, argv, { cwd });
  };
  /** Writes a file from inside the box, as the agent would. */
  const write = (id: string, file: string, text: string) =>
    inBox(id, ['sh', '-c', 'printf "%s" "$1" > "$2"', 'sh', text, file]);
  const gitIn = async (id: string, ...args: string[]) => {
    const run = await inBox(id, ['git', ...args]);
    if (run.code !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
    return run.stdout.trim();
  };

  beforeAll(async () => {
    forge = await startGitHttpDouble({ expectedAuthorization: forgeAuthorization(TOKEN) });
    forge.createRepo('app', { 'README.md': '# app\n', 'gone.txt': 'to delete\n' });
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    await api.request('PATCH', '/api/settings', {
      github: { token: TOKEN },
      gitIdentity: { name: 'Ada Agent', email: 'ada@example.com' },
    });
    const added = await api.request('POST', '/api/settings/repositories', {
      name: 'app',
      cloneUrl: forge.repoUrl('app'),
    });
    expect(added.body).toMatchObject({ name: 'app', defaultBranch: 'main' });
  });
  afterAll(async () => {
    await client?.close();
    await api?.close();
    await forge?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('refuses a session on an unknown repository, naming it, and creates nothing', async () => {
    const before = (await api.request('GET', '/api/sessions')).body.length;
    const res = await api.request('POST', '/api/sessions', {
      title: 'Nope',
      provider: 'scripted',
      repos: ['app', 'nope'],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/unknown repository "nope": Global settings list app/);
    expect((await api.request('GET', '/api/sessions')).body).toHaveLength(before);
  });

  it('clones each repository into /workspace/<name> on the session branch, origin the edge', async () => {
    const created = await api.request('POST', '/api/sessions', {
      title: 'On app',
      provider: 'scripted',
      repos: ['app'],
    });
    expect(created.status).toBe(201);
    sessionId = created.body.id;
    branch = `sessionboxer/${sessionId.slice(0, 8)}`;
    expect(created.body).toMatchObject({ repos: ['app'], branch });
    const session = await waitForBox(api, sessionId);
    workspace = path.dirname(session.box.mcpJsonPath);
    expect(await gitIn(sessionId, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(branch);
    expect(await gitIn(sessionId, 'config', 'remote.origin.url')).toBe(
      'http://127.0.0.1:7001/git/app',
    );
    expect(await gitIn(sessionId, 'config', 'user.email')).toBe('ada@example.com');
    expect(fs.readFileSync(path.join(workspace, 'app/README.md'), 'utf8')).toBe('# app\n');
    // The box owns its clone like the rest of its workspace.
    expect(fs.statSync(path.join(workspace, 'app/.git/config')).uid).toBe(
      fs.statSync(workspace).uid,
    );
  });

  it('shows them in whoami, sessions_list and session.json', async () => {
    await api.request('PATCH', `/api/sessions/${sessionId}/policy`, { agentTools: 'all' });
    client = await mcpClientInBox(api, sessionId);
    const me = await call(client, 'whoami');
    expect(me).toMatchObject({ repos: [{ name: 'app', path: '/workspace/app' }], branch });
    const listed = (await call(client, 'sessions_list')) as { id: string; repos: string[] }[];
    expect(listed.find((s) => s.id === sessionId)?.repos).toEqual(['app']);
    const file = path.join(workspace, '.sessionboxer/session.json');
    const json = await waitFor('session.json with the repos', () => {
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      return text.includes('"repos"') && (JSON.parse(text) as Record<string, unknown>);
    });
    expect(json).toMatchObject({ branch, repos: [{ name: 'app', path: '/workspace/app' }] });
  });

  it("pushes the session's branch from the box through the relay; the token is nowhere in the box", async () => {
    await write(sessionId, 'README.md', '# app\n\nEdited in the box.\n');
    await gitIn(sessionId, 'commit', '-qam', 'Edit the README');
    forge.authorizations.length = 0;
    await gitIn(sessionId, 'push', '-q', 'origin', branch);
    expect(forge.git('app', 'rev-parse', branch)).toBe(await gitIn(sessionId, 'rev-parse', 'HEAD'));
    expect(forge.authorizations.length).toBeGreaterThan(0);
    expect(forge.authorizations.every((a) => a === forgeAuthorization(TOKEN))).toBe(true);
    expect(await boxEnvirons(api, sessionId)).not.toContain(TOKEN);
    expect(filesHolding(workspace, TOKEN)).toEqual([]);
    expect(fs.readFileSync(path.join(workspace, 'app/.git/config'), 'utf8')).not.toContain(TOKEN);
  });

  it('refuses a push to main with a clear message, and main stays as it was', async () => {
    const main = forge.git('app', 'rev-parse', 'main');
    const push = await inBox(sessionId, ['git', 'push', 'origin', 'HEAD:main']);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/\[remote rejected\] HEAD -> main \(main is the default branch/);
    expect(forge.git('app', 'rev-parse', 'main')).toBe(main);
  });

  it('diffs the session against its base branch: an edited, an added and a deleted file', async () => {
    await write(sessionId, 'NEW.md', 'new\nfile\n');
    await inBox(sessionId, ['rm', 'gone.txt']);
    const diff = await api.request('GET', `/api/sessions/${sessionId}/diff`);
    expect(diff.status).toBe(200);
    const [repo] = diff.body.repos;
    expect(repo).toMatchObject({ repo: 'app', branch, base: 'main', error: null });
    const byPath = Object.fromEntries(repo.files.map((f: { path: string }) => [f.path, f]));
    expect(byPath['README.md']).toMatchObject({ status: 'modified', additions: 2, deletions: 0 });
    expect(byPath['README.md'].patch).toContain('+Edited in the box.');
    expect(byPath['NEW.md']).toMatchObject({ status: 'added', additions: 2, deletions: 0 });
    expect(byPath['gone.txt']).toMatchObject({ status: 'deleted', additions: 0, deletions: 1 });
    expect(repo.files).toHaveLength(3);
    // The agent's own index is untouched: NEW.md is still untracked.
    expect(await gitIn(sessionId, 'status', '--porcelain')).toContain('?? NEW.md');
  });

  it('fails the box of a session whose clone fails, saying why, the token masked', async () => {
    await api.request('POST', '/api/settings/repositories', {
      name: 'broken',
      cloneUrl: forge.repoUrl('missing'),
    });
    const res = await api.request('POST', '/api/sessions', {
      title: 'Broken',
      provider: 'scripted',
      repos: ['broken'],
    });
    expect(res.body.message).toMatch(
      /could not clone repository broken from http:\/\/127\.0\.0\.1/,
    );
    const [broken] = (await api.request('GET', '/api/sessions')).body.filter(
      (s: { title: string }) => s.title === 'Broken',
    );
    const failed = await waitForBox(api, broken.id, 'failed');
    expect(failed.box.failure).toMatch(/could not clone repository broken/);
    expect(failed.box.failure).not.toContain(TOKEN);
  });

  it('forks with the same repositories and the copied working tree, on its own branch', async () => {
    const snap = await api.request('POST', `/api/sessions/${sessionId}/snapshots`);
    expect(snap.status).toBe(201);
    const fork = await api.request(
      'POST',
      `/api/sessions/${sessionId}/snapshots/${snap.body.id}/fork`,
    );
    expect(fork.status).toBe(201);
    const forkId = fork.body.id as string;
    expect(fork.body).toMatchObject({
      repos: ['app'],
      branch: `sessionboxer/${forkId.slice(0, 8)}`,
    });
    const forked = await waitForBox(api, forkId);
    const forkWorkspace = path.dirname(forked.box.mcpJsonPath);
    expect(fs.readFileSync(path.join(forkWorkspace, 'app/NEW.md'), 'utf8')).toBe('new\nfile\n');
    await waitFor('the fork on its own branch', async () => {
      const head = await inBox(forkId, ['git', 'rev-parse', '--abbrev-ref', 'HEAD']);
      return head.stdout.trim() === `sessionboxer/${forkId.slice(0, 8)}`;
    });
    expect((await inBox(forkId, ['git', 'status', '--porcelain'])).stdout).toContain('?? NEW.md');
  });
});
