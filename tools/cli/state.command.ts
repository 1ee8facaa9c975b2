import type { EventStore } from '@sessionboxer/event-store';
import { historyPoint, sessionStateAt, type SessionStateAt } from '@sessionboxer/projections';

/**
 * `sessionboxer state <sessionId> --position N | --time ISO`: the session as it was at that
 * point, folded from the history (GET /api/sessions/:id/at gives the same, from the same code).
 */
export async function stateCommand(
  store: EventStore,
  sessionId: string,
  position: string | undefined,
  time: string | undefined,
): Promise<SessionStateAt> {
  return sessionStateAt(store, sessionId, historyPoint(position, time));
}
