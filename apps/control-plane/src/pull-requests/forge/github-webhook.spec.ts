import { createHmac } from 'node:crypto';
import { verifyGitHubSignature, webhookPrRef, webhookPrRefs } from './github-webhook';

const SECRET = "It's a Secret to Everybody";
// GitHub's own example (docs: "Validating webhook deliveries").
const DOCS_BODY = Buffer.from('Hello, World!');
const DOCS_SIGNATURE = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

function sign(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

describe('verifyGitHubSignature', () => {
  const body = Buffer.from(JSON.stringify({ action: 'opened', number: 12 }));

  it("accepts GitHub's documented example", () => {
    expect(verifyGitHubSignature(SECRET, DOCS_BODY, DOCS_SIGNATURE)).toBe(true);
  });

  it('accepts a valid signature, in upper-case hex too', () => {
    expect(verifyGitHubSignature('s3cret', body, sign('s3cret', body))).toBe(true);
    const upper = `sha256=${sign('s3cret', body).slice(7).toUpperCase()}`;
    expect(verifyGitHubSignature('s3cret', body, upper)).toBe(true);
  });

  it('refuses a signature made with another secret', () => {
    expect(verifyGitHubSignature('s3cret', body, sign('other', body))).toBe(false);
  });

  it('refuses a tampered body', () => {
    const tampered = Buffer.from(body.toString().replace('12', '13'));
    expect(verifyGitHubSignature('s3cret', tampered, sign('s3cret', body))).toBe(false);
  });

  it.each([
    ['a sha1 signature', `sha1=${'a'.repeat(40)}`],
    ['no prefix', 'a'.repeat(64)],
    ['short hex', 'sha256=abcd'],
    ['long hex', `sha256=${'a'.repeat(66)}`],
    ['not hex', `sha256=${'z'.repeat(64)}`],
    ['empty', ''],
  ])('refuses a malformed header (%s)', (_, header) => {
    expect(verifyGitHubSignature('s3cret', body, header)).toBe(false);
  });

  it('refuses a missing header and an empty secret', () => {
    expect(verifyGitHubSignature('s3cret', body, undefined)).toBe(false);
    expect(verifyGitHubSignature('', body, sign('', body))).toBe(false);
  });
});

const repository = { name: 'app', owner: { login: 'octo' } };

describe('webhookPrRef', () => {
  it.each(['pull_request', 'pull_request_review', 'pull_request_review_comment'])(
    'reads the PR of a %s event',
    (event) => {
      const payload = { action: 'x', pull_request: { number: 12 }, repository };
      expect(webhookPrRef(event, payload)).toEqual({ owner: 'octo', repo: 'app', number: 12 });
    },
  );

  it('reads the PRs of a check_run event from their API urls', () => {
    const payload = {
      action: 'completed',
      check_run: {
        pull_requests: [
          { number: 3, url: 'https://api.github.com/repos/octo/app/pulls/3' },
          { number: 4, url: 'https://api.github.com/repos/octo/app/pulls/4' },
        ],
      },
      repository,
    };
    expect(webhookPrRef('check_run', payload)).toEqual({ owner: 'octo', repo: 'app', number: 3 });
    expect(webhookPrRefs('check_run', payload).map((r) => r.number)).toEqual([3, 4]);
  });

  it("falls back to the delivery's repository when a check run's PR has no url", () => {
    const payload = { check_run: { pull_requests: [{ number: 5 }] }, repository };
    expect(webhookPrRef('check_run', payload)).toEqual({ owner: 'octo', repo: 'app', number: 5 });
  });

  it('gives null for a check run on no PR (a fork, a push to main)', () => {
    expect(webhookPrRef('check_run', { check_run: { pull_requests: [] }, repository })).toBeNull();
  });

  it.each([
    ['push', { ref: 'refs/heads/main', repository }],
    ['issues', { issue: { number: 1 }, repository }],
    ['ping', { zen: 'Keep it logically awesome.' }],
    [undefined, { pull_request: { number: 1 }, repository }],
  ])('gives null for a %s event', (event, payload) => {
    expect(webhookPrRef(event, payload)).toBeNull();
  });

  it.each([
    ['no payload', null],
    ['no repository', { pull_request: { number: 1 } }],
    ['no PR number', { pull_request: {}, repository }],
    [
      'a bad owner',
      { pull_request: { number: 1 }, repository: { name: 'app', owner: { login: '-x' } } },
    ],
    ['a string payload', 'pull_request'],
  ])('gives null for a pull_request event with %s', (_, payload) => {
    expect(webhookPrRef('pull_request', payload)).toBeNull();
  });
});
