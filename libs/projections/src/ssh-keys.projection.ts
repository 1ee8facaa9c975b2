import { SSH_KEY_EVENT_TYPES, type SshKeyEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { SshKeyView } from '@sessionboxer/contracts';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

/** SSH keys' metadata (the events hold nothing else), as shellwatch_manage_keys lists them. */
function apply(event: RecordedEvent): DocumentChange<SshKeyView>[] {
  const e = event as RecordedEvent & SshKeyEvent;
  switch (e.type) {
    case 'SshKeyAdded': {
      const { keyId, kind, name, type, fingerprint, comment, at } = e.data;
      const doc = { keyId, kind, name, type, fingerprint, comment, createdAt: at };
      return [{ id: keyId, order: event.position, doc }];
    }
    case 'SshKeyRemoved':
      return [{ id: e.data.keyId, doc: null }];
    default:
      return [];
  }
}

export const sshKeysProjection: Projection<SshKeyView> = {
  name: 'ssh_keys',
  version: 1,
  handles: SSH_KEY_EVENT_TYPES,
  apply,
};

export function sshKeyQueries(reader: ReadModelReader) {
  return {
    get: (id: string) => reader.get(sshKeysProjection, id),
    list: () => reader.list(sshKeysProjection, { partition: '' }).map((d) => d.doc),
  };
}
