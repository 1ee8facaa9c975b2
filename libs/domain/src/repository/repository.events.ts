import type { DomainEvent } from '../kernel';
import type { Repository } from './repository.commands';

export type RepositoryAdded = DomainEvent<'RepositoryAdded', Repository & { at: string }>;

/** The repository as it is after the change, whole. */
export type RepositoryUpdated = DomainEvent<'RepositoryUpdated', Repository & { at: string }>;

export type RepositoryRemoved = DomainEvent<'RepositoryRemoved', { name: string; at: string }>;

export type RepositoryEvent = RepositoryAdded | RepositoryUpdated | RepositoryRemoved;

export const REPOSITORY_EVENT_TYPES: readonly RepositoryEvent['type'][] = [
  'RepositoryAdded',
  'RepositoryUpdated',
  'RepositoryRemoved',
];

/** Narrows an event read from a store (type is only a string there) to a repository event. */
export function isRepositoryEvent(event: {
  type: string;
  data: unknown;
}): event is RepositoryEvent {
  return (REPOSITORY_EVENT_TYPES as readonly string[]).includes(event.type);
}
