import { GitHubDouble } from '../../../test/github-double/github-double';
import { ForgeError } from './forge.port';
import { GitHubForge, GitHubForgeOptions } from './github-forge';

// How GitHubForge maps every failure, over real HTTP against the GitHub test double.
const TOKEN = 'ghp_testTokenThatMustNeverLeak0123456789';
const PR = { owner: 'octo', repo: 'app', number: 12 };

let gh: GitHubDouble;
const messages: string[] = [];
const forgeOf = (o: GitHubForgeOptions = {}) =>
  new GitHubForge({ baseUrl: gh.url, token: TOKEN, ...o });

/** The ForgeError `work` fails with; every message is kept for the token check at the end. */
async function failure(work: Promise<unknown>): Promise<ForgeError> {
  const e = await work.then(
    () => {
      throw new Error('expected a ForgeError, got an answer');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ForgeError);
  messages.push((e as ForgeError).message, String((e as ForgeError).stack));
  return e as ForgeError;
}

beforeEach(async () => {
  gh = await GitHubDouble.start();
  gh.requireToken(TOKEN);
  gh.addPr(PR);
});
afterEach(() => gh.close());

it('401: UNAUTHORIZED, saying the token is wrong', async () => {
  const e = await failure(forgeOf({ token: 'ghp_wrong' }).getPr(PR));
  expect(e).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  expect(e.message).toBe(
    'GitHub answered 401 for octo/app#12: the token is missing, wrong or expired (GitHub says: "Bad credentials")',
  );
  const none = await failure(forgeOf({ token: null }).getPr(PR));
  expect(none.code).toBe('UNAUTHORIZED');
  expect(gh.requests[1].headers.authorization).toBeUndefined();
});

it('403 without a rate limit: UNAUTHORIZED, saying what the token lacks', async () => {
  gh.failNext(403, {}, JSON.stringify({ message: 'Resource not accessible by integration' }));
  const e = await failure(forgeOf().getPr(PR));
  expect(e).toMatchObject({ code: 'UNAUTHORIZED', status: 403, retryAt: null });
  expect(e.message).toMatch(/octo\/app#12: the token may not read it .*Resource not accessible/);
});

it('403 with the primary limit used up: RATE_LIMITED until the reset', async () => {
  const reset = Math.floor(Date.now() / 1000) + 1800;
  gh.failNext(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) });
  const e = await failure(forgeOf().getPr(PR));
  expect(e).toMatchObject({ code: 'RATE_LIMITED', status: 403 });
  expect(e.retryAt).toEqual(new Date(reset * 1000));
  expect(e.message).toContain(`it resets at ${new Date(reset * 1000).toISOString()}`);
});

it('403 secondary limit and 429: RATE_LIMITED after Retry-After, or a minute', async () => {
  gh.failNext(429, { 'retry-after': '120' });
  const before = Date.now();
  const e = await failure(forgeOf().getPr(PR));
  expect(e.code).toBe('RATE_LIMITED');
  expect(e.retryAt!.getTime()).toBeGreaterThanOrEqual(before + 120_000);
  expect(e.retryAt!.getTime()).toBeLessThan(before + 125_000);

  gh.failNext(403, {}, JSON.stringify({ message: 'You have exceeded a secondary rate limit.' }));
  const secondary = await failure(forgeOf().getPr(PR));
  expect(secondary.code).toBe('RATE_LIMITED');
  expect(secondary.retryAt!.getTime()).toBeGreaterThanOrEqual(before + 60_000);
});

it('404: NOT_FOUND, saying the PR does not exist or cannot be seen', async () => {
  const e = await failure(forgeOf().getPr({ ...PR, number: 404 }));
  expect(e).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  expect(e.message).toBe(
    'GitHub answered 404 for octo/app#404: the PR does not exist or the token cannot see it (GitHub says: "Not Found")',
  );
});

it('500 and 503: UNAVAILABLE', async () => {
  gh.failNext(500);
  gh.failNext(503, {}, 'upstream connect error');
  expect(await failure(forgeOf().getPr(PR))).toMatchObject({ code: 'UNAVAILABLE', status: 500 });
  const e = await failure(forgeOf().getPr(PR));
  expect(e.message).toBe('GitHub answered 503 for octo/app#12: GitHub is failing; try again later');
});

it('a failure on a later page fails the whole list, naming it', async () => {
  for (let i = 1; i <= 150; i++) gh.addReviewComment(PR, { id: i, body: `c${i}` });
  const forge = forgeOf();
  const pr = await forge.getPr(PR);
  gh.failNext(502, {}, undefined, /comments.*page=2/);
  const e = await failure(forge.listItems(pr));
  expect(e).toMatchObject({ code: 'UNAVAILABLE', status: 502 });
  expect(e.message).toMatch(/^GitHub answered 502 for the review comments of octo\/app#12/);
});

it('garbage instead of JSON: BAD_RESPONSE', async () => {
  gh.failNext(200, { 'content-type': 'text/html' }, '<html>Unicorn!</html>');
  const e = await failure(forgeOf().getPr(PR));
  expect(e.code).toBe('BAD_RESPONSE');
  expect(e.message).toBe("GitHub's answer for octo/app#12 is not JSON: <html>Unicorn!</html>");
});

it('JSON of the wrong shape: BAD_RESPONSE naming the field', async () => {
  gh.failNext(200, {}, JSON.stringify({ number: 12, title: 'x', state: 'open', head: {} }));
  const e = await failure(forgeOf().getPr(PR));
  expect(e.code).toBe('BAD_RESPONSE');
  expect(e.message).toMatch(/octo\/app#12 is not what its API documents: html_url: Required/);
});

it('an unexpected status (422): BAD_RESPONSE', async () => {
  gh.failNext(422, {}, JSON.stringify({ message: 'No commit found for SHA: x' }));
  expect(await failure(forgeOf().getPr(PR))).toMatchObject({ code: 'BAD_RESPONSE', status: 422 });
});

it('a next-page link to another host: BAD_RESPONSE, the token is not sent there', async () => {
  gh.failNext(200, { link: '<https://evil.example/steal?page=2>; rel="next"' }, '[]');
  const forge = forgeOf();
  const e = await failure(
    forge.listItems({ ...PR, url: '', title: '', state: 'open', headSha: 'x' }),
  );
  expect(e.code).toBe('BAD_RESPONSE');
  expect(e.message).toMatch(/next-page link .* does not point to http:\/\/127\.0\.0\.1/);
});

it('no answer within the timeout: UNAVAILABLE', async () => {
  gh.delayNext(2_000);
  const started = Date.now();
  const e = await failure(forgeOf({ timeoutMs: 150 }).getPr(PR));
  expect(Date.now() - started).toBeLessThan(1_500);
  expect(e).toMatchObject({ code: 'UNAVAILABLE', status: null });
  expect(e.message).toBe('Reading octo/app#12: GitHub did not answer within 150 ms');
});

it('nobody listening: UNAVAILABLE', async () => {
  const url = gh.url;
  await gh.close();
  const e = await failure(new GitHubForge({ baseUrl: url, token: TOKEN }).getPr(PR));
  gh = await GitHubDouble.start(); // for afterEach
  expect(e.code).toBe('UNAVAILABLE');
  expect(e.message).toMatch(
    /^Reading octo\/app#12: could not reach GitHub at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/,
  );
});

it('scrubs the token even when GitHub echoes it', async () => {
  gh.failNext(403, {}, JSON.stringify({ message: `token ${TOKEN} lacks scope` }));
  const e = await failure(forgeOf().getPr(PR));
  expect(e.message).toContain('token [token] lacks scope');
});

afterAll(() => {
  expect(messages.length).toBeGreaterThan(20);
  for (const m of messages) expect(m).not.toContain(TOKEN);
});
