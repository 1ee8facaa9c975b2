import { DomainError } from '@sessionboxer/domain';
import type { PrItem, PrSummary } from '@sessionboxer/mcp-adapters';
import {
  check,
  PR_URL,
  prAttached,
  prCheckChanged,
  prItemReceived,
  prItemsAddressed,
  prStateChanged,
  REF,
  reviewComment,
} from '../../domain/test/pr-fixtures';
import { ProjectionSpecification } from '../test/projection-spec';
import { recorded } from '../test/recorded-events';
import {
  pullRequestQueries,
  pullRequestsProjection,
  type PullRequestItem,
  type PullRequestSummary,
} from './pull-requests.projection';

const spec = ProjectionSpecification.for(pullRequestsProjection);
type Reader = Parameters<typeof pullRequestQueries>[0];

function summary(fields: Partial<PullRequestSummary> = {}): PullRequestSummary {
  return {
    id: 'acme/api#12',
    owner: 'acme',
    repo: 'api',
    number: 12,
    url: PR_URL,
    title: 'Add retries',
    state: 'open',
    checks: { passed: 0, failed: 0, pending: 0 },
    unaddressed: 0,
    ...fields,
  };
}

describe('pull requests projection', () => {
  describe('nothing attached', () => {
    it('lists nothing and finds nothing', () => {
      spec.given([]).thenQuery((r) => pullRequestQueries(r).list('s1'), []);
      spec.given([]).thenQuery((r) => pullRequestQueries(r).get('s1', 'acme/api#12'), null);
    });
  });

  describe('a PR just attached', () => {
    const events = recorded([prAttached()]);

    it('has a summary with no checks and nothing to address', () => {
      spec.given(events).thenQuery((r) => pullRequestQueries(r).list('s1'), [summary()]);
      spec.given(events).thenQuery((r) => pullRequestQueries(r).get('s1', 'acme/api#12'), {
        pr: summary(),
        items: [],
      });
    });

    it('is found by its id in any case, and not for another session', () => {
      spec
        .given(events)
        .thenQuery((r) => pullRequestQueries(r).get('s1', 'ACME/Api#12')?.pr.id, 'acme/api#12');
      spec.given(events).thenQuery((r) => pullRequestQueries(r).get('s2', 'acme/api#12'), null);
    });

    it('refuses a prId that is not owner/repo#n', () => {
      spec.given(events).thenQuery((r: Reader) => {
        try {
          return pullRequestQueries(r).get('s1', 'acme/api');
        } catch (e) {
          return e instanceof DomainError ? e.message : 'other';
        }
      }, 'prId must look like owner/repo#12 (got "acme/api")');
    });
  });

  describe('a PR with reviews and checks', () => {
    const events = recorded([
      prAttached(),
      prItemReceived(reviewComment('c1')),
      prItemReceived(reviewComment('r1', { kind: 'review', path: null, line: null })),
      prItemReceived(check('k1', 'pending')),
      prItemReceived(check('k2', 'success')),
      prItemReceived(check('k3', 'failure')),
      prCheckChanged('k1', 'failure', 'pending'),
      prCheckChanged('k3', 'success', 'failure'),
      prItemsAddressed(['c1', 'k1']),
      prStateChanged('merged', 'Add retries!'),
    ]);

    it('counts checks by their latest conclusion, and review items not addressed', () => {
      spec.given(events).thenQuery(
        (r) => pullRequestQueries(r).list('s1'),
        [
          summary({
            title: 'Add retries!',
            state: 'merged',
            checks: { passed: 2, failed: 1, pending: 0 },
            unaddressed: 1,
          }),
        ],
      );
    });

    it('lists the items in the order received, each with addressed', () => {
      spec.given(events).thenQuery(
        (r) =>
          pullRequestQueries(r)
            .get('s1', 'acme/api#12')
            ?.items.map((i) => [i.id, i.conclusion, i.addressed]),
        [
          ['c1', null, true],
          ['r1', null, false],
          ['k1', 'failure', true],
          ['k2', 'success', false],
          ['k3', 'success', false],
        ],
      );
    });

    it('lists several PRs of a session in the order attached', () => {
      const other = { ...REF, repo: 'web', number: 3 };
      const more = recorded([
        prAttached(),
        prAttached({ ...other, url: 'https://github.com/acme/web/pull/3' }),
      ]);
      spec.given(more).thenQuery(
        (r) =>
          pullRequestQueries(r)
            .list('s1')
            .map((p) => p.id),
        ['acme/api#12', 'acme/web#3'],
      );
    });
  });

  it('serves the shapes of the sessionboxer port', () => {
    const pr: PrSummary = summary();
    const item: PrItem = { ...reviewComment('c1'), addressed: false } satisfies PullRequestItem;
    expect([pr.id, item.id]).toEqual(['acme/api#12', 'c1']);
  });
});
