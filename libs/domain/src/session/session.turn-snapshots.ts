import { DomainError, ErrorCode } from '../kernel';
import { has, integer } from '../kernel/validation';
import type { RewindToTurn, TakeTurnSnapshot } from './session.commands';
import type { SessionEvent } from './session.events';
import { existingSession, type SessionState } from './session.state';
import { validSizeBytes } from './session.activity.validation';
import { withSnapshots } from './session.snapshots';
import { validId } from './session.validation';

const count = (value: unknown, field: string) => integer(value, field, 0, Number.MAX_SAFE_INTEGER);

const validTurn = (value: unknown) => integer(value, 'turn', 1, Number.MAX_SAFE_INTEGER);

/**
 * A turn's automatic snapshot, once per turn: a reaction that runs again (at least once
 * delivery) or a second control plane records nothing more. Allowed running or stopped.
 */
export function takeTurnSnapshot(command: TakeTurnSnapshot, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  const session = withSnapshots(existingSession(state, data.sessionId));
  const turn = validTurn(data.turn);
  const snapshotId = validId(data.snapshotId, 'snapshotId');
  if (has(session.turnSnapshots ?? {}, String(turn))) return [];
  const event = {
    sessionId: session.sessionId,
    snapshotId,
    turn,
    conversationPosition: count(data.conversationPosition, 'conversationPosition'),
    sizeBytes: validSizeBytes(data.sizeBytes),
    files: count(data.files, 'files'),
    newBytes: count(data.newBytes, 'newBytes'),
    at: metadata.at,
  };
  return [{ type: 'TurnSnapshotTaken', data: event }];
}

/** The turn's snapshot id, or the NotFound refusal that says which turns have one. */
export function turnSnapshotId(state: SessionState, sessionId: string, turn: number): string {
  const session = existingSession(state, sessionId);
  const snapshots = session.turnSnapshots ?? {};
  if (!has(snapshots, String(turn))) {
    const turns = Object.keys(snapshots).join(', ') || 'none yet';
    throw new DomainError(
      ErrorCode.NotFound,
      `session ${sessionId} has no snapshot of turn ${turn} (turns with one: ${turns})`,
      { sessionId, turn },
    );
  }
  return snapshots[String(turn)];
}

/** Recorded after the files were put back (the service freezes the box meanwhile). */
export function rewindToTurn(command: RewindToTurn, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  withSnapshots(existingSession(state, data.sessionId));
  const turn = validTurn(data.turn);
  const snapshotId = turnSnapshotId(state, data.sessionId, turn);
  return [
    {
      type: 'SessionRewound',
      data: { sessionId: data.sessionId, turn, snapshotId, at: metadata.at },
    },
  ];
}
