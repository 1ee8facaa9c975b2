import { script, turnFinished } from '../../control-plane/test/agent/agent-kit';
import { GitHubDouble } from '../../control-plane/test/github-double/github-double';
import { checkPage, stillSamePage, transcriptLog } from './browser-kit';
import { useScriptedSession } from './session-kit';

const TOKEN = 'ghp_uiTestToken0123456789abcdefABCDEF';

/**
 * The agent (the scripted harness, in a real box) attaches a PR through the sessionboxer MCP
 * server; the forge is the GitHub test double (a real HTTP server speaking GitHub's REST API).
 */
describe('a PR marker in the transcript, live', () => {
  let github: GitHubDouble;
  let commentId: number;

  // The double, where the app's forge calls go (SESSIONBOXER_GITHUB_API_URL), starts before the
  // app and stops after it (the hooks run in the order they are declared).
  beforeAll(async () => {
    github = await GitHubDouble.start();
    github.requireToken(TOKEN);
    github.addPr({ owner: 'acme', repo: 'widgets', number: 12, title: 'Add widgets' });
    github.setCheck(
      { owner: 'acme', repo: 'widgets', number: 12 },
      { name: 'ci', conclusion: 'success' },
    );
    commentId = github.addReviewComment(
      { owner: 'acme', repo: 'widgets', number: 12 },
      { author: 'reviewer', body: 'Please rename this', path: 'src/a.ts', line: 3 },
    );
    process.env.SESSIONBOXER_GITHUB_API_URL = github.url;
  });
  const session = useScriptedSession('Widgets', {
    setup: (api) => api.request('PATCH', '/api/settings', { github: { token: TOKEN } }),
  });
  afterAll(async () => {
    await github?.close();
    delete process.env.SESSIONBOXER_GITHUB_API_URL;
  });

  it('shows "attached PR #12" as the agent attaches it, linking to the PR', async () => {
    const { api, id } = session;
    const page = await session.openView();
    const marker = transcriptLog(page).getByText('attached PR #12 (acme/widgets)');
    expect(await marker.count()).toBe(0);

    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script(
        { say: 'Attaching the PR.' },
        {
          call: 'sessionboxer.pr_attach',
          args: { url: 'https://github.com/acme/widgets/pull/12' },
        },
        { say: 'Attached.' },
      ),
    });
    await marker.waitFor({ timeout: 30_000 });
    expect(await stillSamePage(page)).toBe(true);
    const [pr] = (await api.request('GET', `/api/sessions/${id}/prs`)).body;
    expect(pr).toMatchObject({ id: 'acme/widgets#12', title: 'Add widgets' });
    const url = pr.url as string;
    expect(url).toBe('https://github.com/acme/widgets/pull/12');
    // The marker is a link to the PR.
    const link = transcriptLog(page).getByRole('link', { name: 'attached PR #12 (acme/widgets)' });
    expect(await link.getAttribute('href')).toBe(url);
    await transcriptLog(page).getByText('Attached.', { exact: true }).waitFor();
    await checkPage(page, 'transcript-pr-marker');

    // The PRs pane shows it too, with its check and the review comment, not yet addressed.
    await page.getByRole('tablist', { name: 'Panes' }).getByRole('tab', { name: 'PRs' }).click();
    const pane = page.getByRole('tabpanel');
    await pane.getByText('Add widgets').waitFor();
    const items = pane.getByRole('list', { name: 'Items of #12' });
    await items.getByText(/Check .*: success/).waitFor();
    const comment = items.getByRole('listitem').filter({ hasText: 'Please rename this' });
    await comment.getByText('Not addressed').waitFor();
    await checkPage(page, 'prs-pane');
    await turnFinished(api, id, 1, 30_000);

    // The agent marks it addressed: the mark changes live, without a reload.
    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script({
        call: 'sessionboxer.pr_mark_addressed',
        args: { pr: 'acme/widgets#12', itemIds: [`rc-${commentId}`] },
      }),
    });
    await comment.getByText('✓ Addressed').waitFor({ timeout: 30_000 });
    expect(await stillSamePage(page)).toBe(true);
    await checkPage(page, 'prs-pane-addressed');
    await turnFinished(api, id, 2, 30_000);
  }, 90_000);
});
