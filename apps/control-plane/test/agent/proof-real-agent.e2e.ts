import * as fs from 'node:fs';
import * as path from 'node:path';
import { forgeAuthorization } from '../../src/repositories/host-git';
import { waitFor } from '../box-kit';
import { say, use } from '../doubles/model-provider/model-provider-double';
import { startGitHttpDouble, type GitHttpDouble } from '../doubles/git-http-server';
import { GitHubDouble } from '../github-double/github-double';
import { conversation, turnFinished } from './agent-kit';
import { boxEnvirons, filesHolding, workspaceOf } from './box-secrets-kit';
import {
  allEvents,
  carriesToolResult,
  expectKeyOnlyAtTheDouble,
  LIST_BOX_ENVIRONS,
  readySession,
  realKey,
  startRealAgentWorld,
  type RealAgentWorld,
} from './real-agent-kit';

const TOKEN = 'ghp_proofforgetoken0123456789abcdef';
const PR_URL = 'https://github.com/acme/widgets/pull/7';

/** Each CLI's names for the same tools, and how its Write tool takes its input. */
const CLIS = [
  {
    provider: 'claude-code',
    tools: { title: 'mcp__sessionboxer__title_set', pr: 'mcp__sessionboxer__pr_attach' },
    write: (file_path: string, content: string) => use('Write', { file_path, content }),
    bash: 'Bash',
    writeName: 'Write',
  },
  {
    provider: 'opencode',
    tools: { title: 'sessionboxer_title_set', pr: 'sessionboxer_pr_attach' },
    write: (filePath: string, content: string) => use('write', { filePath, content }),
    bash: 'bash',
    writeName: 'write',
  },
] as const;

/**
 * The issue's proof: a session on a repository (a bare repo served by the real `git
 * http-backend` on 127.0.0.1, standing in for GitHub's git hosting; the GitHub double for the
 * PR). The real Claude Code, scripted by the model-provider double, names the session, writes
 * and edits files, commits, pushes its branch through the box's git relay and attaches the PR.
 * The model key reaches the model double only and the forge token the git double only. The
 * same task again with the real OpenCode (its tools' own names).
 */
describe.each(CLIS)('the real $provider does a coding task in a box, end to end', (cli) => {
  const KEY = realKey('Pf7');
  let github: GitHubDouble;
  let git: GitHttpDouble;
  let world: RealAgentWorld;

  beforeAll(async () => {
    github = await GitHubDouble.start();
    github.requireToken(TOKEN);
    github.addPr({ owner: 'acme', repo: 'widgets', number: 7, title: 'Fix the greeting' });
    process.env.SESSIONBOXER_GITHUB_API_URL = github.url;
    git = await startGitHttpDouble({ expectedAuthorization: forgeAuthorization(TOKEN) });
    git.createRepo('widgets', { 'greeting.txt': 'hello wrold\n', 'README.md': '# Widgets\n' });
    world = await startRealAgentWorld(KEY);
    await world.api.request('PATCH', '/api/settings', { github: { token: TOKEN } });
    const added = await world.api.request('POST', '/api/settings/repositories', {
      name: 'widgets',
      cloneUrl: git.repoUrl('widgets'),
      defaultBranch: 'main',
    });
    expect(added.status).toBe(201);
  });
  afterAll(async () => {
    await world?.close();
    await git?.close();
    await github?.close();
    delete process.env.SESSIONBOXER_GITHUB_API_URL;
  });

  it('names the session, edits, commits, pushes its branch and attaches the PR', async () => {
    const { api, double } = world;
    const id = await readySession(api, cli.provider, 'Proof', { repos: ['widgets'] });
    const session = (await api.request('GET', `/api/sessions/${id}`)).body;
    const branch = session.branch as string;
    expect(branch).toMatch(/^sessionboxer\//);
    const workspace = await workspaceOf(api, id);
    await waitFor('the clone', () => fs.existsSync(path.join(workspace, 'widgets', '.git')));

    const commitAndPush = [
      'cd /workspace/widgets',
      "sed -i 's/wrold/world/' greeting.txt",
      'git add -A',
      'git -c user.name=Agent -c user.email=agent@example.com commit -q -m "Fix the greeting"',
      `git push -q origin HEAD:${branch} 2>&1`,
      'git log -1 --format=%H',
    ].join(' && ');
    double.play([
      [say('Naming the session first.'), use(cli.tools.title, { title: 'Fix the greeting' })],
      [cli.write('/workspace/widgets/NOTES.md', 'The greeting was misspelt.\n')],
      [use(cli.bash, { command: commitAndPush, description: 'Fix, commit and push' })],
      [use(cli.bash, { command: LIST_BOX_ENVIRONS, description: 'List every environment' })],
      [use(cli.tools.pr, { url: PR_URL })],
      [say('Fixed the greeting, pushed the branch and attached the PR.')],
    ]);
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: 'Fix the greeting' });
    // While the CLI runs (the environment listing has come back): the box's processes.
    await double.next(
      (r) =>
        r.kind === 'main' && carriesToolResult(r.body) && JSON.stringify(r.body).includes('PWD='),
    );
    const environs = await boxEnvirons(api, id);

    const finished = await turnFinished(api, id, 1, 120_000);
    const { events } = await conversation(api, id);
    const results = events.filter((e: any) => e.type === 'tool_result');
    expect({ finished: finished.status, errors: results.filter((r: any) => r.error) }).toEqual({
      finished: 'finished',
      errors: [],
    });
    expect(events.filter((e: any) => e.type === 'tool_call').map((c: any) => c.name)).toEqual([
      cli.tools.title,
      cli.writeName,
      cli.bash,
      cli.bash,
      cli.tools.pr,
    ]);

    // The title event.
    const titled = (await allEvents(api)).filter((e) => e.type === 'SessionTitleSet');
    expect(titled.map((e) => e.data)).toEqual([
      expect.objectContaining({ sessionId: id, title: 'Fix the greeting' }),
    ]);
    // The pushed commit, in the bare repository, on the session's branch.
    const pushed = results[2].output.trim().split('\n').pop();
    expect(git.git('widgets', 'rev-parse', `refs/heads/${branch}`)).toBe(pushed);
    expect(git.git('widgets', 'log', '-1', '--format=%s', branch)).toBe('Fix the greeting');
    expect(git.git('widgets', 'show', `${branch}:greeting.txt`)).toBe('hello world');
    expect(git.git('widgets', 'show', `${branch}:NOTES.md`)).toBe('The greeting was misspelt.');
    // The PR, in the PRs read model.
    const prs = (await api.request('GET', `/api/sessions/${id}/prs`)).body;
    expect(prs).toEqual([
      expect.objectContaining({ id: 'acme/widgets#7', url: PR_URL, title: 'Fix the greeting' }),
    ]);
    // The diff against the base branch, file by file.
    const diff = await api.request('GET', `/api/sessions/${id}/diff`);
    expect(diff.status).toBe(200);
    expect(diff.body.repos).toEqual([
      expect.objectContaining({ repo: 'widgets', branch, base: 'main', error: null }),
    ]);
    const files = diff.body.repos[0].files;
    expect(files.map((f: any) => [f.path, f.status, f.additions, f.deletions])).toEqual([
      ['NOTES.md', 'added', 1, 0],
      ['greeting.txt', 'modified', 1, 1],
    ]);
    expect(files[1].patch).toContain('-hello wrold\n+hello world\n');

    // The model key reached the model double only; the forge token the git double only.
    await expectKeyOnlyAtTheDouble(world, id, KEY, `${environs}\n${results[3].output}`);
    expect(environs.includes(TOKEN)).toBe(false);
    expect(filesHolding(workspace, TOKEN)).toEqual([]);
    expect(new Set(git.authorizations)).toEqual(new Set([forgeAuthorization(TOKEN)]));
    expect(JSON.stringify(double.requests).includes(TOKEN)).toBe(false);
  });
});
