import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import {
  attachPr,
  check,
  markAddressed,
  prAttached,
  prCheckChanged,
  prItemReceived,
  prItemsAddressed,
  prStateChanged,
  recordPrItems,
  recordPrState,
  REF,
  reviewComment,
} from '../../test/pr-fixtures';
import { pullRequestDecider } from './pull-request.decider';

const spec = DeciderSpecification.for(pullRequestDecider);
const LATER = '2026-01-02T04:00:00.000Z';

describe('pull request decider', () => {
  describe('not attached', () => {
    const given = spec.given([]);

    it('is attached with its url, title and state', () => {
      given.when(attachPr({}, LATER)).then([prAttached({}, LATER)]);
    });

    it.each([
      ['an owner with an underscore', { owner: 'ac_me' }, /owner must be a GitHub user/],
      ['an owner of 40 characters', { owner: 'a'.repeat(40) }, /owner must be/],
      ['an owner starting with a hyphen', { owner: '-acme' }, /owner must be/],
      ['a repo with a slash', { repo: 'api/x' }, /repo must be a GitHub repository name/],
      ['the repo ..', { repo: '..' }, /repo must be/],
      ['number 0', { number: 0 }, /number must be between 1/],
      ['a number as text', { number: '12' }, /number must be a whole number/],
      [
        'a url that is no url',
        { url: 'github.com/acme/api/pull/12' },
        /url must be an http\(s\) URL/,
      ],
      ['a blank title', { title: ' ' }, /title must not be empty/],
      ['an unknown state', { state: 'draft' }, /state must be one of open, closed, merged/],
    ])('refuses %s', (_case, fields, why) => {
      given.when(attachPr(fields as object)).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it.each([
      ['its state recorded', recordPrState('closed', 'x')],
      ['items recorded', recordPrItems([reviewComment('c1')])],
      ['items marked addressed', markAddressed(['c1'])],
    ])('cannot have %s', (_case, command) => {
      given
        .when(command)
        .thenThrows(
          ErrorCode.NotFound,
          'acme/api#12 is not attached to session s1; attach it first',
        );
    });
  });

  describe('attached', () => {
    const given = spec.given([prAttached()]);

    it('ignores a second attach, whatever it says', () => {
      given.when(attachPr({ title: 'Other' })).thenNothing();
      given.when(attachPr({ owner: 'ACME', repo: 'API' })).thenNothing();
    });

    it('refuses a command that names another PR than its stream holds', () => {
      given
        .when(recordPrState('open', 'x', { ...REF, number: 13 }))
        .thenThrows(
          ErrorCode.ValidationFailed,
          /names acme\/api#13 of session s1, but this stream holds acme\/api#12/,
        );
      given
        .when(attachPr({ sessionId: 's2' }))
        .thenThrows(ErrorCode.ValidationFailed, /session s2/);
    });

    it('records a change of state or title, remembering the previous ones', () => {
      given
        .when(recordPrState('merged', 'Add retries'))
        .then([prStateChanged('merged', 'Add retries')]);
      given
        .when(recordPrState('open', 'Add retries (v2)'))
        .then([prStateChanged('open', 'Add retries (v2)')]);
    });

    it('records nothing when neither changed', () => {
      given.when(recordPrState('open', ' Add retries ')).thenNothing();
    });

    it('records each new item, a check with its conclusion', () => {
      const items = [reviewComment('c1'), check('k1', 'pending')];
      given.when(recordPrItems(items)).then(items.map((item) => prItemReceived(item)));
    });

    it('records nothing for no items', () => {
      given.when(recordPrItems([])).thenNothing();
    });

    it('cuts a body at 4,000 characters, ending it with …', () => {
      const body = '📝'.repeat(4001);
      const cut = `${'📝'.repeat(3999)}…`;
      given
        .when(recordPrItems([reviewComment('c1', { body })]))
        .then([prItemReceived(reviewComment('c1', { body: cut }))]);
      const exact = '📝'.repeat(4000);
      given
        .when(recordPrItems([reviewComment('c1', { body: exact })]))
        .then([prItemReceived(reviewComment('c1', { body: exact }))]);
    });

    it('keeps a multi-line markdown body as it is', () => {
      const item = reviewComment('c1', { body: 'Nit:\n\n```ts\nconst x = 1;\n```' });
      given.when(recordPrItems([item])).then([prItemReceived(item)]);
    });

    it.each([
      ['an item that is no object', ['c1'], /items\[0\] must be an object/],
      [
        'an unknown kind',
        [reviewComment('c1', { kind: 'issue' as 'review' })],
        /items\[0\]\.kind must be one of/,
      ],
      [
        'a conclusion on a comment',
        [reviewComment('c1', { conclusion: 'success' })],
        /items\[0\]\.conclusion is for checks only/,
      ],
      [
        'a conclusion in capitals',
        [check('k1', 'SUCCESS')],
        /items\[0\]\.conclusion must be a lower-case word/,
      ],
      ['a line 0', [reviewComment('c1', { line: 0 })], /items\[0\]\.line must be between 1/],
      [
        'a time that is no time',
        [reviewComment('c1', { createdAt: 'yesterday' })],
        /items\[0\]\.createdAt must be an ISO-8601 time/,
      ],
      [
        'a body that is no string',
        [reviewComment('c1', { body: null as unknown as string })],
        /items\[0\]\.body must be a string/,
      ],
      [
        'a blank id in the second item',
        [reviewComment('c1'), reviewComment(' c2')],
        /items\[1\]\.id must not start or end/,
      ],
      [
        '501 items',
        Array.from({ length: 501 }, (_, i) => reviewComment(`c${i}`)),
        /at most 500 items at a time \(got 501\)/,
      ],
      ['items that are no list', 'c1', /items must be a list/],
    ])('refuses %s', (_case, items, why) => {
      const command = recordPrItems(items as unknown[]);
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });
  });

  describe('with a review comment, a review and a pending check', () => {
    const history = [
      prAttached(),
      prItemReceived(reviewComment('c1')),
      prItemReceived(reviewComment('r1', { kind: 'review', path: null, line: null })),
      prItemReceived(check('k1', 'pending')),
    ];
    const given = spec.given(history);

    it('records only the new items', () => {
      const items = [reviewComment('c1'), reviewComment('c2'), check('k1', 'pending')];
      given.when(recordPrItems(items)).then([prItemReceived(reviewComment('c2'))]);
    });

    it('records a check whose conclusion changed, and not an edited comment', () => {
      const items = [check('k1', 'failure'), reviewComment('c1', { body: 'edited' })];
      given.when(recordPrItems(items)).then([prCheckChanged('k1', 'failure', 'pending')]);
    });

    it('takes items in order: an id twice in one batch is new, then changed', () => {
      const items = [check('k2', null), check('k2', 'success')];
      given
        .when(recordPrItems(items))
        .then([prItemReceived(check('k2', null)), prCheckChanged('k2', 'success', null)]);
    });

    it('marks items addressed, each named once', () => {
      given.when(markAddressed(['c1', 'r1', 'c1'])).then([prItemsAddressed(['c1', 'r1'])]);
    });

    it('refuses unknown items, naming every one', () => {
      given
        .when(markAddressed(['c1', 'zz']))
        .thenThrows(ErrorCode.NotFound, 'item zz is not an item of acme/api#12');
      given
        .when(markAddressed(['x', 'c1', 'y']))
        .thenThrows(
          ErrorCode.NotFound,
          /^items x, y are not items of acme\/api#12; pr_items lists them$/,
        );
    });

    it.each([
      ['no ids', [], /itemIds must name at least one item/],
      ['a blank id', [''], /itemIds\[0\] must not be empty/],
    ])('refuses %s', (_case, ids, why) => {
      given.when(markAddressed(ids)).thenThrows(ErrorCode.ValidationFailed, why);
    });

    describe('and c1 addressed', () => {
      const addressed = spec.given([...history, prItemsAddressed(['c1'])]);

      it('skips what is already addressed', () => {
        addressed.when(markAddressed(['c1', 'k1'])).then([prItemsAddressed(['k1'])]);
      });

      it('records nothing when nothing is new', () => {
        addressed.when(markAddressed(['c1'])).thenNothing();
      });
    });
  });

  describe('merged', () => {
    const given = spec.given([prAttached(), prStateChanged('merged', 'Add retries')]);

    it('still takes items and a reopen', () => {
      given.when(recordPrItems([reviewComment('c1')])).then([prItemReceived(reviewComment('c1'))]);
      given
        .when(recordPrState('open', 'Add retries'))
        .then([prStateChanged('open', 'Add retries', { state: 'merged', title: 'Add retries' })]);
    });
  });
});
