import { checkOutcome } from './pr-checks';
import { formatPrId, parsePrId, prKey, prStream } from './pr-id';

const REF = { sessionId: '3f2a-11', owner: 'Acme-Corp', repo: 'My_API.js', number: 7 };

describe('prStream', () => {
  it('is pr-<sessionId>_<owner>_<repo>_<number>, lower-cased, a valid category-id name', () => {
    const name = prStream(REF);
    expect(name).toBe('pr-3f2a-11_acme-corp_my_api.js_7');
    expect(name).toMatch(/^pr-[A-Za-z0-9_.-]+$/);
  });

  it('is one stream for every spelling of one PR', () => {
    expect(prStream({ ...REF, owner: 'acme-corp', repo: 'MY_API.JS' })).toBe(prStream(REF));
  });

  it('keeps PRs apart that differ in any part', () => {
    const names = new Set([
      prStream(REF),
      prStream({ ...REF, number: 71 }),
      prStream({ ...REF, repo: 'My_API.js_7', number: 1 }),
      prStream({ ...REF, sessionId: '3f2a-12' }),
    ]);
    expect(names.size).toBe(4);
  });

  it.each([
    ['a session id with an underscore', { sessionId: 'a_b' }, /letters, digits, "\." and "-"/],
    ['a session id with a space', { sessionId: 'a b' }, /letters, digits/],
    ['a bad owner', { owner: 'a/b' }, /owner must be/],
    ['a bad repo', { repo: 'a b' }, /repo must be/],
    ['a bad number', { number: -1 }, /number must be between 1/],
  ])('refuses %s', (_case, fields, why) => {
    expect(() => prStream({ ...REF, ...fields })).toThrow(why);
  });
});

describe('PR ids', () => {
  it('formats owner/repo#n and parses it back', () => {
    expect(formatPrId(REF)).toBe('Acme-Corp/My_API.js#7');
    expect(parsePrId('Acme-Corp/My_API.js#7')).toEqual({
      owner: 'Acme-Corp',
      repo: 'My_API.js',
      number: 7,
    });
  });

  it.each(['acme/api', 'acme#3', 'acme/api#x', 'acme/api#3 ', 'a_b/api#3', ''])(
    'refuses %j',
    (id) => {
      expect(() => parsePrId(id)).toThrow(/prId must look like owner\/repo#12|owner must be/);
    },
  );

  it('keys a PR case-insensitively', () => {
    expect(prKey(REF)).toBe('acme-corp/my_api.js#7');
  });
});

describe('checkOutcome', () => {
  it.each([
    ['success', 'passed'],
    ['neutral', 'passed'],
    ['skipped', 'passed'],
    ['failure', 'failed'],
    ['timed_out', 'failed'],
    ['cancelled', 'failed'],
    ['action_required', 'failed'],
    ['pending', 'pending'],
    ['in_progress', 'pending'],
    [null, 'pending'],
  ])('counts %s as %s', (conclusion, outcome) => {
    expect(checkOutcome(conclusion)).toBe(outcome);
  });
});
