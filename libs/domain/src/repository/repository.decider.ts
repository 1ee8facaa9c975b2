import { assertNever, DomainError, ErrorCode, type Decider } from '../kernel';
import { has, invalid, object, onlyKeys } from '../kernel/validation';
import { REPOSITORIES_MAX } from '../limits';
import type {
  AddRepository,
  RemoveRepository,
  Repository,
  RepositoryCommand,
  UpdateRepository,
} from './repository.commands';
import type { RepositoryEvent } from './repository.events';
import { validBranchName, validCloneUrl, validRepoName } from './repository.validation';

/** The one stream of Global settings' repositories, so a name is unique among them. */
export const REPOSITORIES_STREAM = 'repositories-global';

export function repositoriesStream(): string {
  return REPOSITORIES_STREAM;
}

export const DEFAULT_BRANCH = 'main';

/** Name → repository; a plain record (JSON), looked up with `has`. */
export interface RepositoriesState {
  repositories: Readonly<Record<string, Omit<Repository, 'name'>>>;
}

export const initialRepositoriesState: RepositoriesState = { repositories: {} };

function known(state: RepositoriesState, name: string) {
  if (!has(state.repositories, name)) {
    throw new DomainError(ErrorCode.NotFound, `there is no repository named ${name}`, { name });
  }
  return state.repositories[name];
}

function add(command: AddRepository, state: RepositoriesState): RepositoryEvent[] {
  const data = object(command.data, 'body');
  onlyKeys(data, '', ['name', 'cloneUrl', 'defaultBranch']);
  const name = validRepoName(data.name);
  const taken = Object.keys(state.repositories).find((n) => n.toLowerCase() === name.toLowerCase());
  if (taken !== undefined) {
    throw new DomainError(ErrorCode.AlreadyExists, `a repository named ${taken} already exists`, {
      name,
    });
  }
  if (Object.keys(state.repositories).length >= REPOSITORIES_MAX) {
    throw new DomainError(
      ErrorCode.LimitReached,
      `Global settings hold at most ${REPOSITORIES_MAX} repositories; remove one first`,
    );
  }
  const repo = {
    name,
    cloneUrl: validCloneUrl(data.cloneUrl),
    defaultBranch:
      data.defaultBranch === undefined ? DEFAULT_BRANCH : validBranchName(data.defaultBranch),
  };
  return [{ type: 'RepositoryAdded', data: { ...repo, at: command.metadata.at } }];
}

function update(command: UpdateRepository, state: RepositoriesState): RepositoryEvent[] {
  const data = object(command.data, 'body');
  onlyKeys(data, '', ['name', 'cloneUrl', 'defaultBranch']);
  const name = validRepoName(data.name);
  const before = known(state, name);
  const cloneUrl = data.cloneUrl === undefined ? before.cloneUrl : validCloneUrl(data.cloneUrl);
  const defaultBranch =
    data.defaultBranch === undefined ? before.defaultBranch : validBranchName(data.defaultBranch);
  if (cloneUrl === before.cloneUrl && defaultBranch === before.defaultBranch) return [];
  const at = command.metadata.at;
  return [{ type: 'RepositoryUpdated', data: { name, cloneUrl, defaultBranch, at } }];
}

function remove(command: RemoveRepository, state: RepositoriesState): RepositoryEvent[] {
  const name = validRepoName(command.data.name);
  known(state, name);
  return [{ type: 'RepositoryRemoved', data: { name, at: command.metadata.at } }];
}

function decide(command: RepositoryCommand, state: RepositoriesState): RepositoryEvent[] {
  if (typeof command.data !== 'object' || command.data === null)
    throw invalid('body', 'the repository must be an object');
  switch (command.type) {
    case 'AddRepository':
      return add(command, state);
    case 'UpdateRepository':
      return update(command, state);
    case 'RemoveRepository':
      return remove(command, state);
    default:
      return assertNever(command);
  }
}

function evolve(state: RepositoriesState, event: RepositoryEvent): RepositoriesState {
  switch (event.type) {
    case 'RepositoryAdded':
    case 'RepositoryUpdated': {
      const { name, cloneUrl, defaultBranch } = event.data;
      return { repositories: { ...state.repositories, [name]: { cloneUrl, defaultBranch } } };
    }
    case 'RepositoryRemoved': {
      const { [event.data.name]: _gone, ...rest } = state.repositories;
      return { repositories: rest };
    }
    default:
      return assertNever(event);
  }
}

/** Global settings' repositories: added, changed, removed; names unique (case aside). */
export const repositoriesDecider: Decider<RepositoryCommand, RepositoryEvent, RepositoriesState> = {
  decide,
  evolve,
  initialState: initialRepositoriesState,
};
