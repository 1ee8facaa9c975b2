/** The embedded SQLite adapter: `import { SqliteEventStore } from '@sessionboxer/event-store/sqlite'`. */
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store';
export type { EventRow } from './event-table';
export type { GroupCommitStats } from './group-commit';
export type { SqliteSynchronous } from './schema';
export { verifyFile, type VerifyFileOptions } from './verify-file';
