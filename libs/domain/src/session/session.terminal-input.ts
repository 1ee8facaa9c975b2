import { DomainError, ErrorCode } from '../kernel';
import { exactId, has } from '../kernel/validation';
import type { RecordTerminalTyped } from './session.commands';
import type { SessionEvent } from './session.events';
import { existingSession, type SessionState } from './session.state';

/**
 * A person typed into a running Terminal of the session. Only a person types (an agent's
 * Terminals run their command); an exited Terminal takes no input, so typing into one is
 * refused with why. Who and when are recorded, never what was typed.
 */
export function terminalTyped(command: RecordTerminalTyped, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  const session = existingSession(state, data.sessionId);
  const terminalId = exactId(data.terminalId, 'terminalId');
  if (metadata.actor.kind !== 'person') {
    throw new DomainError(ErrorCode.Forbidden, 'only a signed-in person types into a Terminal', {
      sessionId: session.sessionId,
      terminalId,
    });
  }
  if (!has(session.terminals, terminalId)) {
    throw new DomainError(
      ErrorCode.NotFound,
      `session ${session.sessionId} has no Terminal ${terminalId}`,
      { sessionId: session.sessionId, terminalId },
    );
  }
  if (session.terminals[terminalId]) {
    throw new DomainError(
      ErrorCode.InvalidState,
      `Terminal ${terminalId} has exited: it takes no more input (open a new terminal)`,
      { sessionId: session.sessionId, terminalId },
    );
  }
  const event = { sessionId: session.sessionId, terminalId, by: metadata.actor, at: metadata.at };
  return [{ type: 'TerminalTypedInto', data: event }];
}
