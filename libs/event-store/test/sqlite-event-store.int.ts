/** The SQLite adapter against the shared contract, one fresh file per test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { describeEventStoreContract } from './event-store.contract';

describeEventStoreContract('SqliteEventStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-es-contract-'));
  const store = SqliteEventStore.open({ path: join(dir, 'events.sqlite') });
  return Promise.resolve({
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
});
