import { createHmac } from 'node:crypto';
import { GitHubDouble } from '../../../test/github-double/github-double';
import { ForgeItem, ForgePr } from './forge.port';
import { GitHubForge } from './github-forge';
import { verifyGitHubSignature, webhookPrRef } from './github-webhook';
import { PrPoller } from './pr-poller';

// The poller with the real adapter over HTTP against the GitHub test double, real timers.
const PR = { owner: 'octo', repo: 'app', number: 7 };

let gh: GitHubDouble;
let poller: PrPoller;
let updates: Array<{ sessionId: string; state: string; items: string[] }>;
let logs: string[];

beforeEach(async () => {
  gh = await GitHubDouble.start();
  gh.requireToken('t0ken');
  gh.addPr(PR);
  updates = [];
  logs = [];
  const forge = new GitHubForge({ baseUrl: gh.url, token: 't0ken' });
  poller = new PrPoller({
    forge: () => forge,
    intervalMs: 50,
    listAttached: () => Promise.resolve([{ sessionId: 's1', ...PR }]),
    onUpdate: (sessionId: string, pr: ForgePr, items: ForgeItem[]) => {
      updates.push({ sessionId, state: pr.state, items: items.map((i) => i.id) });
      return Promise.resolve();
    },
    logger: { log: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
  });
});

afterEach(async () => {
  await poller.stop();
  await gh.close();
});

it('delivers what a signed webhook announces', async () => {
  await poller.pollNow();
  expect(updates).toEqual([{ sessionId: 's1', state: 'open', items: [] }]);

  gh.addReviewComment(PR, { id: 5, body: 'nit' });
  gh.setCheck(PR, { id: 6, name: 'ci', conclusion: 'failure' });
  const body = Buffer.from(
    JSON.stringify({
      pull_request: { number: 7 },
      repository: { name: 'app', owner: { login: 'octo' } },
    }),
  );
  const signature = `sha256=${createHmac('sha256', 'hook').update(body).digest('hex')}`;
  expect(verifyGitHubSignature('hook', body, signature)).toBe(true);
  const ref = webhookPrRef('pull_request_review_comment', JSON.parse(body.toString()));
  await poller.pollNow(undefined, ref!);
  expect(updates[1]).toEqual({ sessionId: 's1', state: 'open', items: ['rc-5', 'ck-6'] });
});

it('runs rounds on its own, backs off on a rate limit, and stops cleanly', async () => {
  const reset = Math.ceil(Date.now() / 1000) + 3600;
  gh.failNext(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) });
  poller.start();
  await until(() => logs.length > 0);
  expect(logs[0]).toMatch(
    /^PR polling paused until .*GitHub answered 403 for octo\/app#7: rate limit/,
  );
  const seen = gh.requests.length;
  await new Promise((resolve) => setTimeout(resolve, 200)); // four intervals
  expect(gh.requests.length).toBe(seen);
  expect(updates).toEqual([]);
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(condition()).toBe(true);
}
