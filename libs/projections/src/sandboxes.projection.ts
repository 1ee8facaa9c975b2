import {
  initialSandboxState,
  isSandboxEvent,
  sandboxDecider,
  SANDBOX_EVENT_TYPES,
  type SandboxState,
} from '@sessionboxer/domain/sandbox';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

/**
 * Every sandbox as its own decider folds it (one rule for status and spend), one partition
 * per org, in creation order. Secrets are names only: no value ever reaches an event.
 */
export type SandboxDoc = SandboxState & { id: string };

function apply(
  event: RecordedEvent,
  get: (id: string) => SandboxDoc | null,
): DocumentChange<SandboxDoc>[] {
  if (!isSandboxEvent(event)) return [];
  const id = event.data.sandboxId;
  const before = get(id);
  if (before === null && event.type !== 'SandboxCreated') return [];
  const doc = { ...sandboxDecider.evolve(before ?? initialSandboxState, event), id };
  if (before !== null) return [{ id, doc }];
  return [{ id, partition: doc.settings?.orgId ?? '', order: event.position, doc }];
}

export const sandboxesProjection: Projection<SandboxDoc> = {
  name: 'sandboxes',
  version: 1,
  handles: SANDBOX_EVENT_TYPES,
  apply,
};

export interface SandboxQueries {
  get(id: string): SandboxDoc | null;
  /** The org's sandboxes, newest first. */
  list(orgId: string): SandboxDoc[];
}

export function sandboxQueries(reader: ReadModelReader): SandboxQueries {
  return {
    get: (id) => reader.get(sandboxesProjection, id),
    list: (orgId) =>
      reader
        .list(sandboxesProjection, { partition: orgId })
        .map((d) => d.doc)
        .reverse(),
  };
}
