import type { IdSet } from '../kernel/id-set';
import { DomainError, ErrorCode } from '../kernel';
import type { SessionEnvironment } from '../limits';
import type { SessionRef } from './session.commands';

export type SessionStatus = 'running' | 'stopped';

/**
 * Only what `decide` needs to enforce the invariants; read models keep the rest.
 * `createdBy` is kept for the "only a parent stops its children" rule to come. The maps are
 * plain records (JSON, like everything a command result returns); look keys up with `has`.
 */
export type SessionState =
  /** `deleted`: the session existed and was deleted; its id is never used again. */
  | { status: 'absent'; deleted?: true }
  | {
      status: SessionStatus;
      sessionId: string;
      title: string;
      createdBy: SessionRef | null;
      /** Windows and macOS sessions have no snapshots. */
      environment: SessionEnvironment;
      /** Snapshot id → its ordinal. */
      snapshots: Readonly<Record<string, number>>;
      snapshotCount: number;
      /** Turn number → the id of the snapshot taken when it ended (absent in old folds). */
      turnSnapshots?: Readonly<Record<string, string>>;
      /** Terminal id → whether it has exited. */
      terminals: Readonly<Record<string, boolean>>;
      /** Terminal id → bytes of its output recorded (absent in old folds: none). */
      terminalBytes?: Readonly<Record<string, number>>;
      /** Ids already used, so a notification is never recorded (and pushed) twice. */
      notificationIds: IdSet;
      /** Hidden from the sidebar's default view (absent in old folds: not archived). */
      archived?: boolean;
    };

export type ExistingSession = Exclude<SessionState, { status: 'absent' }>;

export const initialSessionState: SessionState = { status: 'absent' };

/** The session, or the NotFound refusal every command but CreateSession gives without one. */
export function existingSession(state: SessionState, sessionId: string): ExistingSession {
  if (state.status === 'absent' && state.deleted === true) {
    throw new DomainError(ErrorCode.NotFound, `session ${sessionId} was deleted`, {
      sessionId,
      deleted: true,
    });
  }
  if (state.status === 'absent') {
    throw new DomainError(ErrorCode.NotFound, `session ${sessionId} does not exist`, {
      sessionId,
    });
  }
  return state;
}
