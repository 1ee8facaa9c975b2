import type { RepositoryEvent } from '@sessionboxer/domain';
import { ProjectionSpecification } from '../test/projection-spec';
import { recorded } from '../test/recorded-events';
import { repositoriesProjection, repositoryQueries } from './repositories.projection';

const spec = ProjectionSpecification.for(repositoriesProjection);
const AT = '2026-01-02T03:04:05.000Z';
const LATER = '2026-01-03T03:04:05.000Z';
const URL = 'https://github.com/octo/app.git';

const added = (name: string, at = AT): RepositoryEvent => ({
  type: 'RepositoryAdded',
  data: { name, cloneUrl: URL, defaultBranch: 'main', at },
});
const doc = (name: string, more = {}) => ({
  name,
  cloneUrl: URL,
  defaultBranch: 'main',
  createdAt: AT,
  updatedAt: AT,
  ...more,
});

describe('repositories projection', () => {
  it('lists them in the order they were added', () => {
    spec
      .given(recorded([added('web'), added('api')]))
      .thenQuery((r) => repositoryQueries(r).list(), [doc('web'), doc('api')]);
  });

  it('follows an update, keeping the place and the creation time', () => {
    const updated: RepositoryEvent = {
      type: 'RepositoryUpdated',
      data: { name: 'web', cloneUrl: URL, defaultBranch: 'dev', at: LATER },
    };
    spec
      .given(recorded([added('web'), added('api'), updated]))
      .thenQuery(
        (r) => repositoryQueries(r).list(),
        [doc('web', { defaultBranch: 'dev', updatedAt: LATER }), doc('api')],
      );
  });

  it('forgets a removed one', () => {
    const removed: RepositoryEvent = { type: 'RepositoryRemoved', data: { name: 'web', at: AT } };
    spec.given(recorded([added('web'), removed])).then({});
    spec
      .given(recorded([added('web'), removed]))
      .thenQuery((r) => repositoryQueries(r).get('web'), null);
  });
});
