import type { SessionRef } from './session.commands';

export type SessionStatus = 'running' | 'stopped';

/**
 * Only what `decide` needs to enforce the invariants; read models keep the rest.
 * `createdBy` is kept for the "only a parent stops its children" rule to come.
 */
export type SessionState =
  | { status: 'absent' }
  | { status: SessionStatus; sessionId: string; title: string; createdBy: SessionRef | null };

export type ExistingSession = Exclude<SessionState, { status: 'absent' }>;

export const initialSessionState: SessionState = { status: 'absent' };
