import {
  API_KEY_EVENT_TYPES,
  type ApiKeyEvent,
  type ApiKeyScope,
} from '@sessionboxer/domain/api-key';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

/** An org's API keys as people see them: never the key, never its hash. */
export interface ApiKeyDoc {
  keyId: string;
  orgId: string;
  name: string;
  scopes: ApiKeyScope[];
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

function apply(
  event: RecordedEvent,
  get: (id: string) => ApiKeyDoc | null,
): DocumentChange<ApiKeyDoc>[] {
  const e = event as unknown as ApiKeyEvent;
  switch (e.type) {
    case 'ApiKeyCreated': {
      const { keyId, orgId, name, scopes, prefix, at } = e.data;
      const doc = { keyId, orgId, name, scopes, prefix, createdAt: at, revokedAt: null };
      return [{ id: keyId, partition: orgId, order: event.position, doc }];
    }
    case 'ApiKeyRevoked': {
      const before = get(e.data.keyId);
      return before === null
        ? []
        : [{ id: e.data.keyId, doc: { ...before, revokedAt: e.data.at } }];
    }
    default:
      return [];
  }
}

export const apiKeysProjection: Projection<ApiKeyDoc> = {
  name: 'api_keys',
  version: 1,
  handles: API_KEY_EVENT_TYPES,
  apply,
};

export function apiKeyQueries(reader: ReadModelReader) {
  return {
    list: (orgId: string): ApiKeyDoc[] =>
      reader.list(apiKeysProjection, { partition: orgId }).map((d) => d.doc),
  };
}
