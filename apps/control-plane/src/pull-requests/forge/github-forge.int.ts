import { GitHubDouble } from '../../../test/github-double/github-double';
import { GitHubForge, GitHubForgeOptions } from './github-forge';

// GitHubForge over real HTTP against the GitHub test double (GitHub is out of reach here).
const TOKEN = 'ghp_testTokenThatMustNeverLeak0123456789';
const PR = { owner: 'octo', repo: 'app', number: 12 };

let gh: GitHubDouble;
const forgeOf = (o: GitHubForgeOptions = {}) =>
  new GitHubForge({ baseUrl: gh.url, token: TOKEN, ...o });

beforeEach(async () => {
  gh = await GitHubDouble.start();
  gh.requireToken(TOKEN);
});
afterEach(() => gh.close());

describe('getPr', () => {
  it('reads an open PR and sends the headers GitHub asks for', async () => {
    gh.addPr({ ...PR, title: 'Add login', headSha: 'abc123' });
    await expect(forgeOf().getPr(PR)).resolves.toEqual({
      ...PR,
      url: 'https://github.com/octo/app/pull/12',
      title: 'Add login',
      state: 'open',
      headSha: 'abc123',
    });
    expect(gh.requests).toEqual([
      {
        method: 'GET',
        path: '/repos/octo/app/pulls/12',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          'user-agent': 'sessionboxer-control-plane',
        },
      },
    ]);
  });

  it('tells closed from merged', async () => {
    gh.addPr({ ...PR, state: 'closed' });
    gh.addPr({ ...PR, number: 13 });
    gh.setMerged({ ...PR, number: 13 });
    await expect(forgeOf().getPr(PR)).resolves.toMatchObject({ state: 'closed' });
    await expect(forgeOf().getPr({ ...PR, number: 13 })).resolves.toMatchObject({
      state: 'merged',
    });
  });

  it('takes a base URL with a trailing slash', async () => {
    gh.addPr(PR);
    await expect(forgeOf({ baseUrl: `${gh.url}/` }).getPr(PR)).resolves.toMatchObject({
      number: 12,
    });
    expect(gh.requests.map((r) => r.path)).toEqual(['/repos/octo/app/pulls/12']);
  });
});

describe('listItems', () => {
  it('gives review comments, reviews worth reading and the head commit checks', async () => {
    gh.addPr({ ...PR, headSha: 'old' });
    gh.setCheck(PR, { id: 1, name: 'stale build', conclusion: 'failure' });
    gh.setHeadSha(PR, 'head1');
    gh.addReviewComment(PR, {
      id: 11,
      author: 'alice',
      body: 'Rename this',
      path: 'a.ts',
      line: 7,
      createdAt: '2024-05-02T10:00:00Z',
    });
    gh.addReviewComment(PR, {
      id: 12,
      author: null,
      body: 'Outdated',
      path: 'b.ts',
      line: null,
      originalLine: 3,
    });
    gh.addReview(PR, { id: 21, author: 'bob', state: 'COMMENTED', body: 'Looks close' });
    gh.addReview(PR, { id: 22, author: 'carol', state: 'CHANGES_REQUESTED', body: '' });
    gh.addReview(PR, { id: 23, author: 'dave', state: 'APPROVED', body: '' });
    gh.addReview(PR, { id: 24, author: 'erin', state: 'PENDING', body: 'draft' });
    gh.setCheck(PR, {
      id: 31,
      name: 'build',
      conclusion: 'failure',
      startedAt: '2024-05-02T11:00:00Z',
    });
    gh.setCheck(PR, { id: 32, name: 'lint', status: 'in_progress' });

    const forge = forgeOf();
    const items = await forge.listItems(await forge.getPr(PR));

    expect(items).toEqual([
      {
        id: 'rc-11',
        kind: 'review_comment',
        author: 'alice',
        body: 'Rename this',
        path: 'a.ts',
        line: 7,
        conclusion: null,
        url: 'https://github.com/octo/app/pull/12#discussion_r11',
        createdAt: '2024-05-02T10:00:00Z',
      },
      {
        id: 'rc-12',
        kind: 'review_comment',
        author: null,
        body: 'Outdated',
        path: 'b.ts',
        line: 3,
        conclusion: null,
        url: 'https://github.com/octo/app/pull/12#discussion_r12',
        createdAt: '2024-05-01T12:00:00Z',
      },
      {
        id: 'rv-21',
        kind: 'review',
        author: 'bob',
        body: 'Looks close',
        path: null,
        line: null,
        conclusion: null,
        url: 'https://github.com/octo/app/pull/12#pullrequestreview-21',
        createdAt: '2024-05-01T12:00:00Z',
      },
      {
        id: 'rv-22',
        kind: 'review',
        author: 'carol',
        body: '(requested changes without a comment)',
        path: null,
        line: null,
        conclusion: null,
        url: 'https://github.com/octo/app/pull/12#pullrequestreview-22',
        createdAt: '2024-05-01T12:00:00Z',
      },
      {
        id: 'ck-31',
        kind: 'check',
        author: 'github-actions',
        body: 'build',
        path: null,
        line: null,
        conclusion: 'failure',
        url: 'https://github.com/octo/app/runs/31',
        createdAt: '2024-05-02T11:00:00Z',
      },
      {
        id: 'ck-32',
        kind: 'check',
        author: 'github-actions',
        body: 'lint',
        path: null,
        line: null,
        conclusion: 'in_progress',
        url: 'https://github.com/octo/app/runs/32',
        createdAt: '2024-05-01T12:00:00Z',
      },
    ]);
    expect(gh.requests.map((r) => r.path)).toEqual([
      '/repos/octo/app/pulls/12',
      '/repos/octo/app/pulls/12/comments?per_page=100',
      '/repos/octo/app/pulls/12/reviews?per_page=100',
      '/repos/octo/app/commits/head1/check-runs?per_page=100',
    ]);
  });

  it('follows the Link header over 250 review comments', async () => {
    gh.addPr(PR);
    for (let i = 1; i <= 250; i++) gh.addReviewComment(PR, { id: i, body: `c${i}` });
    const forge = forgeOf();
    const items = await forge.listItems(await forge.getPr(PR));
    expect(items.map((i) => i.id)).toEqual(Array.from({ length: 250 }, (_, i) => `rc-${i + 1}`));
    expect(gh.requests.filter((r) => r.path.includes('/comments')).map((r) => r.path)).toEqual([
      '/repos/octo/app/pulls/12/comments?per_page=100',
      '/repos/octo/app/pulls/12/comments?per_page=100&page=2',
      '/repos/octo/app/pulls/12/comments?per_page=100&page=3',
    ]);
  });

  it('pages check runs too, and stops at maxPages', async () => {
    gh.addPr(PR);
    for (let i = 1; i <= 250; i++)
      gh.setCheck(PR, { id: i, name: `job ${i}`, conclusion: 'success' });
    const forge = forgeOf({ maxPages: 2 });
    const items = await forge.listItems(await forge.getPr(PR));
    expect(items).toHaveLength(200);
    expect(items[199]).toMatchObject({ id: 'ck-200', body: 'job 200' });
  });
});
