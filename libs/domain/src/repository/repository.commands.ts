import type { Command } from '../kernel';

/** A repository of Global settings: cloned into `/workspace/<name>` of the sessions that name it. */
export interface Repository {
  /** Its folder under /workspace, and how sessions, tools and the git relay name it. */
  name: string;
  /** Where it is fetched from and pushed to (http or https; never with credentials in it). */
  cloneUrl: string;
  /** The branch a session's branch starts from and its diff is taken against. */
  defaultBranch: string;
}

export type AddRepository = Command<
  'AddRepository',
  { name: string; cloneUrl: string; defaultBranch?: string }
>;

/** Changes what is given; a field left out is kept. */
export type UpdateRepository = Command<
  'UpdateRepository',
  { name: string; cloneUrl?: string; defaultBranch?: string }
>;

export type RemoveRepository = Command<'RemoveRepository', { name: string }>;

export type RepositoryCommand = AddRepository | UpdateRepository | RemoveRepository;
