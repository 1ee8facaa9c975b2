import { DomainError, ErrorCode } from '../kernel';
import type { ArchiveSession, DeleteSession, UnarchiveSession } from './session.commands';
import type { SessionEvent } from './session.events';
import { existingSession as existing } from './session.state';
import type { SessionState } from './session.state';

/** Only a person archives or deletes: an agent manages its children by stopping them. */
function personOnly(command: ArchiveSession | UnarchiveSession | DeleteSession): void {
  if (command.metadata.actor.kind === 'agent') {
    throw new DomainError(
      ErrorCode.Forbidden,
      'only a person archives, unarchives or deletes a session',
      { sessionId: command.data.sessionId },
    );
  }
}

/** Archiving an archived session records nothing (like renaming to the same title). */
export function archiveSession(command: ArchiveSession, state: SessionState): SessionEvent[] {
  personOnly(command);
  const { sessionId } = command.data;
  const session = existing(state, sessionId);
  if (session.archived === true) return [];
  return [{ type: 'SessionArchived', data: { sessionId, at: command.metadata.at } }];
}

export function unarchiveSession(command: UnarchiveSession, state: SessionState): SessionEvent[] {
  personOnly(command);
  const { sessionId } = command.data;
  const session = existing(state, sessionId);
  if (session.archived !== true) return [];
  return [{ type: 'SessionUnarchived', data: { sessionId, at: command.metadata.at } }];
}

/** A running session is refused: its agent may be mid-turn, so it is stopped first. */
export function deleteSession(command: DeleteSession, state: SessionState): SessionEvent[] {
  personOnly(command);
  const { sessionId } = command.data;
  const session = existing(state, sessionId);
  if (session.status === 'running') {
    throw new DomainError(
      ErrorCode.InvalidState,
      `session ${sessionId} is running: stop it before deleting it`,
      { sessionId, status: session.status },
    );
  }
  return [{ type: 'SessionDeleted', data: { sessionId, at: command.metadata.at } }];
}
