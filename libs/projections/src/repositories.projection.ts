import { isRepositoryEvent, REPOSITORY_EVENT_TYPES } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { RepositoryView } from '@sessionboxer/contracts';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

/** Global settings' repositories, as `GET /api/settings/repositories` answers them. */
export type RepositoryDoc = RepositoryView;

function apply(
  event: RecordedEvent,
  get: (id: string) => RepositoryDoc | null,
): DocumentChange<RepositoryDoc>[] {
  if (!isRepositoryEvent(event)) return [];
  const { name, at } = event.data;
  switch (event.type) {
    case 'RepositoryAdded': {
      const { cloneUrl, defaultBranch } = event.data;
      const doc = { name, cloneUrl, defaultBranch, createdAt: at, updatedAt: at };
      return [{ id: name, order: event.position, doc }];
    }
    case 'RepositoryUpdated': {
      const before = get(name);
      if (before === null) return [];
      const { cloneUrl, defaultBranch } = event.data;
      return [{ id: name, doc: { ...before, cloneUrl, defaultBranch, updatedAt: at } }];
    }
    case 'RepositoryRemoved':
      return get(name) === null ? [] : [{ id: name, doc: null }];
  }
}

export const repositoriesProjection: Projection<RepositoryDoc> = {
  name: 'repositories',
  version: 1,
  handles: REPOSITORY_EVENT_TYPES,
  apply,
};

export interface RepositoryQueries {
  get(name: string): RepositoryDoc | null;
  /** Every repository, in the order they were added. */
  list(): RepositoryDoc[];
}

export function repositoryQueries(reader: ReadModelReader): RepositoryQueries {
  return {
    get: (name) => reader.get(repositoriesProjection, name),
    list: () => reader.list(repositoriesProjection, { partition: '' }).map((d) => d.doc),
  };
}
