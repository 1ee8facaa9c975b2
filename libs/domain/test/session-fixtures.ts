import type {
  Actor,
  CommandMetadata,
  CreateSession,
  ResumeSession,
  SessionCreated,
  SessionResumed,
  SessionStopped,
  SessionTitleSet,
  SetSessionTitle,
  StopSession,
} from '../src';

/** Builders for session commands and events, shared by the decider and projection tests. */
export const AT = '2026-01-02T03:04:05.000Z';
export const PERSON: Actor = { kind: 'person', id: 'ada' };

export function meta(overrides: Partial<CommandMetadata> = {}): CommandMetadata {
  return { commandId: 'cmd-1', at: AT, actor: PERSON, ...overrides };
}

type CreateData = CreateSession['data'];

export function createSession(data: Partial<CreateData> = {}, at = AT): CreateSession {
  const full: CreateData = {
    sessionId: 's1',
    title: 'Backend tests',
    provider: 'claude-code',
    model: 'claude',
    environment: 'docker-linux',
    createdBy: null,
    forkedFrom: null,
    ...data,
  };
  return { type: 'CreateSession', data: full, metadata: meta({ at }) };
}

export function setTitle(sessionId: string, title: string, at = AT): SetSessionTitle {
  return { type: 'SetSessionTitle', data: { sessionId, title }, metadata: meta({ at }) };
}

export function stopSession(sessionId: string, reason?: string, at = AT): StopSession {
  const data = reason === undefined ? { sessionId } : { sessionId, reason };
  return { type: 'StopSession', data, metadata: meta({ at }) };
}

export function resumeSession(sessionId: string, at = AT): ResumeSession {
  return { type: 'ResumeSession', data: { sessionId }, metadata: meta({ at }) };
}

export function sessionCreated(data: Partial<CreateData> = {}, at = AT): SessionCreated {
  const { repos = [], ...spec } = createSession(data).data;
  const branch = repos.length > 0 ? `sessionboxer/${spec.sessionId.slice(0, 8)}` : null;
  return { type: 'SessionCreated', data: { ...spec, repos, branch, at } };
}

export function sessionTitleSet(
  sessionId: string,
  title: string,
  previousTitle: string,
  at = AT,
): SessionTitleSet {
  return { type: 'SessionTitleSet', data: { sessionId, title, previousTitle, at } };
}

export function sessionStopped(
  sessionId: string,
  reason: string | null = null,
  at = AT,
): SessionStopped {
  return { type: 'SessionStopped', data: { sessionId, reason, at } };
}

export function sessionResumed(sessionId: string, at = AT): SessionResumed {
  return { type: 'SessionResumed', data: { sessionId, at } };
}
