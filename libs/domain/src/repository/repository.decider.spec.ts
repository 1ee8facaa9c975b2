import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import type { RepositoryCommand } from './repository.commands';
import { repositoriesDecider, repositoriesStream } from './repository.decider';
import type { RepositoryEvent } from './repository.events';

const spec = DeciderSpecification.for(repositoriesDecider);
const URL = 'https://github.com/octo/app.git';

const cmd = (type: RepositoryCommand['type'], data: unknown) =>
  ({ type, data, metadata: meta() }) as RepositoryCommand;
const added = (name = 'app', cloneUrl = URL, defaultBranch = 'main'): RepositoryEvent => ({
  type: 'RepositoryAdded',
  data: { name, cloneUrl, defaultBranch, at: AT },
});

describe('repositories decider', () => {
  it('lives in one stream', () => {
    expect(repositoriesStream()).toBe('repositories-global');
  });

  describe('none yet', () => {
    const given = spec.given([]);

    it('adds one, its default branch main unless given', () => {
      given.when(cmd('AddRepository', { name: 'app', cloneUrl: URL })).then([added()]);
      given
        .when(cmd('AddRepository', { name: 'app', cloneUrl: `${URL}/`, defaultBranch: 'trunk' }))
        .then([added('app', URL, 'trunk')]);
    });

    it.each([
      ['a name with a slash', { name: 'a/b', cloneUrl: URL }, /name must be a folder name/],
      ['a dot folder', { name: '.sessionboxer', cloneUrl: URL }, /not starting with "\."/],
      ['a name like an option', { name: '-x', cloneUrl: URL }, /name must be a folder name/],
      ['a name too long', { name: 'a'.repeat(101), cloneUrl: URL }, /1–100/],
      ['a file URL', { name: 'a', cloneUrl: 'file:///etc' }, /file: is not served/],
      ['an ssh URL', { name: 'a', cloneUrl: 'git@github.com:o/a.git' }, /must be a URL/],
      [
        'a URL with a token',
        { name: 'a', cloneUrl: 'https://x:ghp_1@github.com/o/a' },
        /must not hold a user or password/,
      ],
      ['a URL with a space', { name: 'a', cloneUrl: 'https://x y' }, /without spaces/],
      ['a bad branch', { name: 'a', cloneUrl: URL, defaultBranch: 'a..b' }, /branch name/],
      ['an unknown field', { name: 'a', cloneUrl: URL, token: 'x' }, /unknown field token/],
    ])('refuses %s, naming the field', (_case, data, why) => {
      given.when(cmd('AddRepository', data)).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it('cannot change or remove what is not there', () => {
      given
        .when(cmd('RemoveRepository', { name: 'app' }))
        .thenThrows(ErrorCode.NotFound, /no repository named app/);
      given
        .when(cmd('UpdateRepository', { name: 'app', defaultBranch: 'dev' }))
        .thenThrows(ErrorCode.NotFound);
    });
  });

  describe('with one', () => {
    const given = spec.given([added()]);

    it('refuses the same name again, in any case', () => {
      given
        .when(cmd('AddRepository', { name: 'APP', cloneUrl: URL }))
        .thenThrows(ErrorCode.AlreadyExists, /named app already exists/);
    });

    it('updates what is given and keeps the rest; nothing for no change', () => {
      given.when(cmd('UpdateRepository', { name: 'app', defaultBranch: 'dev' })).then([
        {
          type: 'RepositoryUpdated',
          data: { name: 'app', cloneUrl: URL, defaultBranch: 'dev', at: AT },
        },
      ]);
      given.when(cmd('UpdateRepository', { name: 'app', cloneUrl: URL })).thenNothing();
    });

    it('removes it, and then the name is free again', () => {
      given
        .when(cmd('RemoveRepository', { name: 'app' }))
        .then([{ type: 'RepositoryRemoved', data: { name: 'app', at: AT } }]);
      spec
        .given([added(), { type: 'RepositoryRemoved', data: { name: 'app', at: AT } }])
        .when(cmd('AddRepository', { name: 'app', cloneUrl: URL }))
        .then([added()]);
    });
  });
});
