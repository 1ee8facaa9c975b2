export { SHARED_STATE, type SharedState } from './shared-state.port';
export { installationKey, openSharedState } from './open-shared-state';
export { RedisSharedState } from './redis-shared-state';
export { SqliteSharedState } from './sqlite-shared-state';
