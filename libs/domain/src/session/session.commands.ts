import type { Command } from '../kernel';

/** Where a session's box runs. */
export type SessionEnvironment = 'docker-linux' | 'qemu-windows' | 'qemu-macos';

export const SESSION_ENVIRONMENTS: readonly SessionEnvironment[] = [
  'docker-linux',
  'qemu-windows',
  'qemu-macos',
];

/** Another session, by id. */
export interface SessionRef {
  sessionId: string;
}

/** The snapshot of another session that a new session starts from. */
export interface ForkOrigin {
  sessionId: string;
  snapshotId: string;
}

export type CreateSession = Command<
  'CreateSession',
  {
    sessionId: string;
    title: string;
    provider: string;
    model: string;
    environment: SessionEnvironment;
    /** The agent session that created it; null when a person did. */
    createdBy: SessionRef | null;
    forkedFrom: ForkOrigin | null;
  }
>;

export type SetSessionTitle = Command<'SetSessionTitle', { sessionId: string; title: string }>;

export type StopSession = Command<'StopSession', { sessionId: string; reason?: string }>;

export type ResumeSession = Command<'ResumeSession', { sessionId: string }>;

export type SessionCommand = CreateSession | SetSessionTitle | StopSession | ResumeSession;
