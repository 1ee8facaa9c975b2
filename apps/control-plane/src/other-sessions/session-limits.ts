import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { limitQueries, sidebarQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import type { SessionLimits } from '@sessionboxer/contracts';

/** This session's agent's alive children and the global cap's use, as the read model has them. */
export function sessionLimits(readModels: SqliteReadModelStore, sessionId: string): SessionLimits {
  if (!sidebarQueries(readModels).get(sessionId)) {
    throw new DomainError(ErrorCode.NotFound, `session ${sessionId} does not exist`);
  }
  const q = limitQueries(readModels);
  return { children: q.children(sessionId), global: q.global() };
}
