import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { AppConfig } from '../../config';
import { ensureDataDir, eventStorePath } from '../open-event-store';
import { RedisSharedState } from './redis-shared-state';
import { SqliteSharedState } from './sqlite-shared-state';
import type { SharedState } from './shared-state.port';

/**
 * One installation is one event store: its instances share keys under a prefix derived from
 * where the store is, so two installations on one Redis (the tests, staging beside
 * production) never read each other's sign-ins or leases.
 */
export function installationKey(config: AppConfig): string {
  const where = config.eventStoreUrl ?? eventStorePath(config);
  return createHash('sha256').update(where).digest('hex').slice(0, 16);
}

/** Redis when REDIS_URL is set (several hosts), else a SQLite file in the data dir. */
export function openSharedState(config: AppConfig): SharedState {
  if (config.redisUrl) {
    return new RedisSharedState(config.redisUrl, `sessionboxer:${installationKey(config)}:`);
  }
  ensureDataDir(config);
  return new SqliteSharedState(path.join(config.dataDir, 'shared-state.sqlite'));
}
