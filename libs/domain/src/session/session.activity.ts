import { idSetHas } from '../kernel/id-set';
import { DomainError, ErrorCode } from '../kernel';
import { has } from '../kernel/validation';
import type {
  Notify,
  RecordTerminalExited,
  RecordTerminalOpened,
  ReportTerminalOpened,
  RequestPane,
} from './session.commands';
import type { SessionEvent } from './session.events';
import { existingSession, type ExistingSession, type SessionState } from './session.state';
import {
  validArgv,
  validExitCode,
  validNotificationText,
  validOpener,
  validPaneRequest,
  validSource,
} from './session.activity.validation';
import { validId } from './session.validation';

// These record what happened around a session; none is refused for a stopped one, since a
// Terminal's exit or a PR notification may well arrive after the stop.

export function notify(command: Notify, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  const session = existingSession(state, data.sessionId);
  const notificationId = validId(data.notificationId, 'notificationId');
  if (idSetHas(session.notificationIds, notificationId)) {
    throw new DomainError(
      ErrorCode.AlreadyExists,
      `notification ${notificationId} was already sent; a new notification needs a new id`,
      { sessionId: session.sessionId, notificationId },
    );
  }
  const event = {
    sessionId: session.sessionId,
    notificationId,
    text: validNotificationText(data.text),
    source: validSource(data.source),
    at: metadata.at,
  };
  return [{ type: 'NotificationSent', data: event }];
}

/** The box reports a Terminal once per id; a repeated report changes nothing. */
export function terminalOpened(command: RecordTerminalOpened, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  const session = existingSession(state, data.sessionId);
  const terminalId = validId(data.terminalId, 'terminalId');
  const event = {
    sessionId: session.sessionId,
    terminalId,
    command: validArgv(data.command),
    openedBy: validOpener(data.openedBy),
    at: metadata.at,
  };
  if (has(session.terminals, terminalId)) return [];
  return [{ type: 'TerminalOpened', data: event }];
}

function knownTerminal(session: ExistingSession, terminalId: string): boolean {
  if (!has(session.terminals, terminalId)) {
    throw new DomainError(
      ErrorCode.NotFound,
      `terminal ${terminalId} does not exist in session ${session.sessionId}`,
      { sessionId: session.sessionId, terminalId },
    );
  }
  return session.terminals[terminalId];
}

/** A box reports opening only the Terminals it was asked to open (see ReportTerminalOpened). */
export function terminalReported(
  command: ReportTerminalOpened,
  state: SessionState,
): SessionEvent[] {
  const session = existingSession(state, command.data.sessionId);
  const terminalId = validId(command.data.terminalId, 'terminalId');
  if (has(session.terminals, terminalId)) return [];
  throw new DomainError(
    ErrorCode.NotFound,
    `session ${session.sessionId} never asked its box to open terminal ${terminalId}, so the box cannot have opened it`,
    { sessionId: session.sessionId, terminalId },
  );
}

/** A shell exits once: a second report (the first exit code stands) changes nothing. */
export function terminalExited(command: RecordTerminalExited, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  const session = existingSession(state, data.sessionId);
  const terminalId = validId(data.terminalId, 'terminalId');
  const exitCode = validExitCode(data.exitCode);
  const exited = knownTerminal(session, terminalId);
  if (exited) return [];
  const event = { sessionId: session.sessionId, terminalId, exitCode, at: metadata.at };
  return [{ type: 'TerminalExited', data: event }];
}

/** Recorded even when no browser showed it: the agent asked, and `shown` says what came of it. */
export function requestPane(command: RequestPane, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  const session = existingSession(state, data.sessionId);
  const request = validPaneRequest(data);
  if (request.terminalId !== null) knownTerminal(session, request.terminalId);
  const event = { sessionId: session.sessionId, ...request, at: metadata.at };
  return [{ type: 'PaneRequested', data: event }];
}
