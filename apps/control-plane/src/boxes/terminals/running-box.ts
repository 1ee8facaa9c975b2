import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { sessionDetailsQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import type { DaemonChannel } from '../channel/daemon-channel';

/**
 * Refuses (409, naming the box's status) unless the session's box runs and its daemon is
 * connected: a frozen box keeps its socket but answers nothing. `toDo` says what needed it.
 */
export function runningBox(
  readModels: SqliteReadModelStore,
  channel: DaemonChannel,
  sessionId: string,
  toDo: string,
): void {
  const status = sessionDetailsQueries(readModels).get(sessionId)?.box?.status ?? 'absent';
  if (status === 'ready' && channel.isConnected(sessionId)) return;
  const why = status === 'ready' ? 'not connected' : status;
  throw new DomainError(
    ErrorCode.InvalidState,
    `the box of session ${sessionId} is not running (${why}): resume the session to ${toDo}`,
    { boxStatus: status },
  );
}
