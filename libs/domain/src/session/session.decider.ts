import { EMPTY_ID_SET, idSetAdd } from '../kernel/id-set';
import { recordRecording, recordRecordingNarrated } from './session.recordings';
import { assertNever, DomainError, ErrorCode, type Decider } from '../kernel';
import type {
  CreateSession,
  ResumeSession,
  SessionCommand,
  SetSessionTitle,
  StopSession,
} from './session.commands';
import {
  notify,
  requestPane,
  terminalExited,
  terminalOpened,
  terminalReported,
} from './session.activity';
import type { SessionEvent } from './session.events';
import { revertToSnapshot, takeSnapshot } from './session.snapshots';
import { archiveSession, deleteSession, unarchiveSession } from './session.manage';
import { rewindToTurn, takeTurnSnapshot } from './session.turn-snapshots';
import { terminalOutput } from './session.terminal-output';
import { terminalTyped } from './session.terminal-input';
import {
  existingSession as existing,
  initialSessionState,
  type SessionState,
} from './session.state';
import {
  validCreatedBy,
  validEnvironment,
  validForkOrigin,
  validId,
  validModel,
  validProvider,
  validReason,
  validSessionRepos,
  validTitle,
  sessionBranch,
} from './session.validation';

const CATEGORY = 'session';

/**
 * The session's stream, `session-<id>`. Built here in the `category-id` form that
 * libs/event-store's `streamName` uses, because the domain may not import the store.
 */
export function sessionStream(sessionId: string): string {
  return `${CATEGORY}-${validId(sessionId, 'sessionId')}`;
}

function create(command: CreateSession, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  const sessionId = validId(data.sessionId, 'sessionId');
  if (state.status !== 'absent' || state.deleted === true) {
    throw new DomainError(
      ErrorCode.AlreadyExists,
      `session ${sessionId} already exists; a new session needs a new id`,
      { sessionId },
    );
  }
  const event = {
    sessionId,
    title: validTitle(data.title),
    provider: validProvider(data.provider),
    model: validModel(data.model),
    environment: validEnvironment(data.environment),
    createdBy: validCreatedBy(data.createdBy, sessionId),
    forkedFrom: validForkOrigin(data.forkedFrom, sessionId),
    repos: validSessionRepos(data.repos),
    branch: null as string | null,
    at: metadata.at,
  };
  if (event.repos.length > 0) event.branch = sessionBranch(sessionId);
  return [{ type: 'SessionCreated', data: event }];
}

function setTitle(command: SetSessionTitle, state: SessionState): SessionEvent[] {
  const { sessionId } = command.data;
  const session = existing(state, sessionId);
  const title = validTitle(command.data.title);
  // Renaming to the current title changes nothing, so nothing is recorded (and no marker shows).
  if (title === session.title) return [];
  const data = { sessionId, title, previousTitle: session.title, at: command.metadata.at };
  return [{ type: 'SessionTitleSet', data }];
}

function stop(command: StopSession, state: SessionState): SessionEvent[] {
  const { sessionId } = command.data;
  const session = existing(state, sessionId);
  const { actor } = command.metadata;
  // An agent stops only the sessions it created (a person stops any); never its own.
  if (actor.kind === 'agent' && actor.sessionId === sessionId) {
    throw new DomainError(
      ErrorCode.Forbidden,
      'a session cannot stop itself: end your turn instead',
      { sessionId },
    );
  }
  if (actor.kind === 'agent' && session.createdBy?.sessionId !== actor.sessionId) {
    throw new DomainError(
      ErrorCode.Forbidden,
      `session ${sessionId} is not yours to stop: an agent stops only the sessions it created`,
      { sessionId },
    );
  }
  if (session.status === 'stopped') {
    throw new DomainError(ErrorCode.InvalidState, `session ${sessionId} is already stopped`, {
      sessionId,
      status: session.status,
    });
  }
  const data = { sessionId, reason: validReason(command.data.reason), at: command.metadata.at };
  return [{ type: 'SessionStopped', data }];
}

function resume(command: ResumeSession, state: SessionState): SessionEvent[] {
  const { sessionId } = command.data;
  const session = existing(state, sessionId);
  if (session.status === 'running') {
    throw new DomainError(
      ErrorCode.InvalidState,
      `session ${sessionId} is already running; only a stopped session can be resumed`,
      { sessionId, status: session.status },
    );
  }
  return [{ type: 'SessionResumed', data: { sessionId, at: command.metadata.at } }];
}

function decide(command: SessionCommand, state: SessionState): SessionEvent[] {
  switch (command.type) {
    case 'CreateSession':
      return create(command, state);
    case 'SetSessionTitle':
      return setTitle(command, state);
    case 'StopSession':
      return stop(command, state);
    case 'ResumeSession':
      return resume(command, state);
    case 'ArchiveSession':
      return archiveSession(command, state);
    case 'UnarchiveSession':
      return unarchiveSession(command, state);
    case 'DeleteSession':
      return deleteSession(command, state);
    case 'TakeSnapshot':
      return takeSnapshot(command, state);
    case 'RevertToSnapshot':
      return revertToSnapshot(command, state);
    case 'TakeTurnSnapshot':
      return takeTurnSnapshot(command, state);
    case 'RewindToTurn':
      return rewindToTurn(command, state);
    case 'Notify':
      return notify(command, state);
    case 'RecordTerminalOpened':
      return terminalOpened(command, state);
    case 'ReportTerminalOpened':
      return terminalReported(command, state);
    case 'RecordTerminalExited':
      return terminalExited(command, state);
    case 'RecordTerminalOutput':
      return terminalOutput(command, state);
    case 'RecordTerminalTyped':
      return terminalTyped(command, state);
    case 'RequestPane':
      return requestPane(command, state);
    case 'RecordRecording':
      return recordRecording(command, state);
    case 'RecordRecordingNarrated':
      return recordRecordingNarrated(command, state);
    default:
      return assertNever(command);
  }
}

/** Events are facts: evolve never refuses one, it only folds what it knows into the state. */
function evolve(state: SessionState, event: SessionEvent): SessionState {
  if (event.type === 'SessionCreated') {
    const { sessionId, title, createdBy, environment } = event.data;
    const empty = { snapshots: {}, snapshotCount: 0, terminals: {}, notificationIds: EMPTY_ID_SET };
    return { status: 'running', sessionId, title, createdBy, environment, ...empty };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'SessionTitleSet':
      return { ...state, title: event.data.title };
    case 'SessionStopped':
      return { ...state, status: 'stopped' };
    case 'SessionResumed':
      return { ...state, status: 'running' };
    case 'SessionArchived':
      return { ...state, archived: true };
    case 'SessionUnarchived':
      return { ...state, archived: false };
    case 'SessionDeleted':
      return { status: 'absent', deleted: true };
    case 'SnapshotTaken': {
      const { snapshotId, ordinal } = event.data;
      const snapshots = { ...state.snapshots, [snapshotId]: ordinal };
      return { ...state, snapshots, snapshotCount: Math.max(state.snapshotCount, ordinal) };
    }
    case 'TurnSnapshotTaken': {
      const { turn, snapshotId } = event.data;
      return { ...state, turnSnapshots: { ...state.turnSnapshots, [turn]: snapshotId } };
    }
    case 'TerminalOpened':
      return { ...state, terminals: { ...state.terminals, [event.data.terminalId]: false } };
    case 'TerminalExited':
      return { ...state, terminals: { ...state.terminals, [event.data.terminalId]: true } };
    case 'TerminalOutputRecorded': {
      const { terminalId, offset, length } = event.data;
      const terminalBytes = { ...state.terminalBytes, [terminalId]: offset + length };
      return { ...state, terminalBytes };
    }
    case 'NotificationSent': {
      const notificationIds = idSetAdd(state.notificationIds, event.data.notificationId);
      return { ...state, notificationIds };
    }
    case 'SessionReverted':
    case 'SessionRewound':
    case 'PaneRequested':
    case 'TerminalTypedInto':
    case 'RecordingFinished':
    case 'RecordingNarrated':
      return state;
    default:
      return assertNever(event);
  }
}

export const sessionDecider: Decider<SessionCommand, SessionEvent, SessionState> = {
  decide,
  evolve,
  initialState: initialSessionState,
};
