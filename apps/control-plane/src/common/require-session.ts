import { DomainError, ErrorCode } from '@sessionboxer/domain';
import {
  sidebarQueries,
  type SidebarSession,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';

/** The session as the sidebar has it, or the one NOT_FOUND answer every route gives. */
export function requireSession(
  readModels: SqliteReadModelStore,
  sessionId: string,
): SidebarSession {
  const session = sidebarQueries(readModels).get(sessionId);
  if (!session) throw new DomainError(ErrorCode.NotFound, `session ${sessionId} does not exist`);
  return session;
}
