import { DomainError, ErrorCode } from '../kernel';
import { has } from '../kernel/validation';
import type { RevertToSnapshot, TakeSnapshot } from './session.commands';
import type { SessionEvent } from './session.events';
import { existingSession, type ExistingSession, type SessionState } from './session.state';
import { validConversationPosition, validSizeBytes } from './session.activity.validation';
import { validId } from './session.validation';

/** A Windows or macOS session's VM disk is outside the box's image, so it cannot be snapshotted. */
export function withSnapshots(session: ExistingSession): ExistingSession {
  if (session.environment === 'qemu-windows' || session.environment === 'qemu-macos') {
    throw new DomainError(
      ErrorCode.InvalidState,
      'snapshots are not available in Windows and macOS sessions (their VM disk is outside the box)',
      { sessionId: session.sessionId, environment: session.environment },
    );
  }
  return session;
}

/** Allowed running or stopped: a stopped box's disk is still there to copy. */
export function takeSnapshot(command: TakeSnapshot, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  const session = withSnapshots(existingSession(state, data.sessionId));
  const snapshotId = validId(data.snapshotId, 'snapshotId');
  if (has(session.snapshots, snapshotId)) {
    throw new DomainError(
      ErrorCode.AlreadyExists,
      `snapshot ${snapshotId} already exists in session ${session.sessionId}; a new snapshot needs a new id`,
      { sessionId: session.sessionId, snapshotId },
    );
  }
  const event = {
    sessionId: session.sessionId,
    snapshotId,
    ordinal: session.snapshotCount + 1,
    sizeBytes: validSizeBytes(data.sizeBytes),
    conversationPosition: validConversationPosition(data.conversationPosition),
    at: metadata.at,
  };
  return [{ type: 'SnapshotTaken', data: event }];
}

export function revertToSnapshot(command: RevertToSnapshot, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  const session = withSnapshots(existingSession(state, data.sessionId));
  const snapshotId = validId(data.snapshotId, 'snapshotId');
  if (!has(session.snapshots, snapshotId)) {
    throw new DomainError(
      ErrorCode.NotFound,
      `snapshot ${snapshotId} does not exist in session ${session.sessionId}`,
      { sessionId: session.sessionId, snapshotId },
    );
  }
  const ordinal = session.snapshots[snapshotId];
  const event = { sessionId: session.sessionId, snapshotId, ordinal, at: metadata.at };
  return [{ type: 'SessionReverted', data: event }];
}
