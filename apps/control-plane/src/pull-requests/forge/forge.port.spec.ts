import { ForgeError, InvalidPrRefError, parsePrId, parsePrUrl, prId } from './forge.port';

describe('parsePrUrl', () => {
  it.each([
    ['https://github.com/octo/app/pull/12', { owner: 'octo', repo: 'app', number: 12 }],
    [
      'https://github.com/Octo-Org/my.repo_v2/pull/7',
      { owner: 'Octo-Org', repo: 'my.repo_v2', number: 7 },
    ],
    ['https://www.github.com/octo/app/pull/3', { owner: 'octo', repo: 'app', number: 3 }],
    ['https://github.com/octo/app/pull/12/files', { owner: 'octo', repo: 'app', number: 12 }],
    ['https://github.com/octo/app/pull/12/', { owner: 'octo', repo: 'app', number: 12 }],
    [
      'https://github.com/octo/app/pull/12#discussion_r1',
      { owner: 'octo', repo: 'app', number: 12 },
    ],
    ['https://github.com/octo/app/pull/12?w=1', { owner: 'octo', repo: 'app', number: 12 }],
    ['  https://github.com/octo/app/pull/12  ', { owner: 'octo', repo: 'app', number: 12 }],
    ['https://github.com/a/.github/pull/1', { owner: 'a', repo: '.github', number: 1 }],
    [
      `https://github.com/${'a'.repeat(39)}/${'r'.repeat(100)}/pull/1`,
      { owner: 'a'.repeat(39), repo: 'r'.repeat(100), number: 1 },
    ],
  ])('reads %s', (url, ref) => {
    expect(parsePrUrl(url)).toEqual(ref);
  });

  it.each([
    ['not a url', /is not a URL/],
    ['http://github.com/octo/app/pull/12', /not an https/],
    ['https://gitlab.com/octo/app/pull/12', /not on github.com/],
    ['https://github.com.evil.io/octo/app/pull/12', /not on github.com/],
    ['https://github.com:8443/octo/app/pull/12', /port or credentials/],
    ['https://user:pw@github.com/octo/app/pull/12', /port or credentials/],
    ['https://github.com/octo/app/issues/12', /not a pull request URL/],
    ['https://github.com/octo/app/pull/', /not a pull request URL/],
    ['https://github.com/octo/app', /not a pull request URL/],
    ['https://github.com/-octo/app/pull/1', /not a GitHub owner name/],
    ['https://github.com/octo-/app/pull/1', /not a GitHub owner name/],
    ['https://github.com/oc_to/app/pull/1', /not a GitHub owner name/],
    [`https://github.com/${'a'.repeat(40)}/app/pull/1`, /not a GitHub owner name/],
    ['https://github.com/octo/a%20b/pull/1', /not a GitHub repository name/],
    ['https://github.com/octo/../pull/1', /not a pull request URL/],
    [`https://github.com/octo/${'r'.repeat(101)}/pull/1`, /not a GitHub repository name/],
    ['https://github.com/octo/app.git/pull/1', /not a GitHub repository name/],
    ['https://github.com/octo/app/pull/0', /not a pull request number/],
    ['https://github.com/octo/app/pull/012', /not a pull request number/],
    ['https://github.com/octo/app/pull/12abc', /not a pull request number/],
    ['https://github.com/octo/app/pull/99999999999', /not a pull request number/],
  ])('refuses %s', (url, why) => {
    expect(() => parsePrUrl(url)).toThrow(InvalidPrRefError);
    expect(() => parsePrUrl(url)).toThrow(why);
  });
});

describe('prId and parsePrId', () => {
  it('names a PR owner/repo#number and reads it back', () => {
    const ref = { owner: 'octo', repo: 'app', number: 12 };
    expect(prId(ref)).toBe('octo/app#12');
    expect(parsePrId(prId(ref))).toEqual(ref);
  });

  it.each(['octo/app', 'octo#12', 'octo/app#x', 'octo/app/x#1', '-x/app#1', 'octo/app#12 extra'])(
    'refuses %s',
    (id) => {
      expect(() => parsePrId(id)).toThrow(InvalidPrRefError);
    },
  );
});

describe('ForgeError', () => {
  it('carries its code, status and reset time', () => {
    const retryAt = new Date('2030-01-01T00:00:00Z');
    const e = new ForgeError('RATE_LIMITED', 'slow down', { status: 403, retryAt });
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ name: 'ForgeError', code: 'RATE_LIMITED', status: 403, retryAt });
    expect(new ForgeError('UNAVAILABLE', 'x')).toMatchObject({ status: null, retryAt: null });
  });
});
