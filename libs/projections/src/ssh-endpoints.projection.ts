import { SSH_ENDPOINT_EVENT_TYPES, type SshEndpointEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { SshEndpointView } from '@sessionboxer/contracts';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

/** The SSH endpoints terminals open against, as shellwatch_manage_endpoints lists them. */
function apply(
  event: RecordedEvent,
  get: (id: string) => SshEndpointView | null,
): DocumentChange<SshEndpointView>[] {
  const e = event as RecordedEvent & SshEndpointEvent;
  const id = e.data.endpointId;
  switch (e.type) {
    case 'SshEndpointCreated': {
      const { by: _by, at, ...fields } = e.data;
      return [{ id, order: event.position, doc: { ...fields, createdAt: at, updatedAt: at } }];
    }
    case 'SshEndpointUpdated': {
      const before = get(id);
      if (before === null) return [];
      const { by: _by, at, endpointId: _id, ...changes } = e.data;
      return [{ id, doc: { ...before, ...changes, updatedAt: at } }];
    }
    case 'SshHostKeyPinned': {
      const before = get(id);
      if (before === null) return [];
      const doc = { ...before, hostKeyFingerprint: e.data.fingerprint, updatedAt: e.data.at };
      return [{ id, doc }];
    }
    case 'SshEndpointDeleted':
      return get(id) === null ? [] : [{ id, doc: null }];
    default:
      return [];
  }
}

export const sshEndpointsProjection: Projection<SshEndpointView> = {
  name: 'ssh_endpoints',
  version: 1,
  handles: SSH_ENDPOINT_EVENT_TYPES,
  apply,
};

export function sshEndpointQueries(reader: ReadModelReader) {
  return {
    get: (id: string) => reader.get(sshEndpointsProjection, id),
    list: () => reader.list(sshEndpointsProjection, { partition: '' }).map((d) => d.doc),
  };
}
