import type { DomainEvent } from '../kernel';
import type { ForkOrigin, SessionEnvironment, SessionRef } from './session.commands';

/**
 * Every event carries its session id and the command's `at`, so a read model can be built
 * from the event data alone.
 */
export type SessionCreated = DomainEvent<
  'SessionCreated',
  {
    sessionId: string;
    title: string;
    provider: string;
    model: string;
    environment: SessionEnvironment;
    createdBy: SessionRef | null;
    forkedFrom: ForkOrigin | null;
    at: string;
  }
>;

/** `previousTitle` lets a transcript or an audit show the rename without replaying the stream. */
export type SessionTitleSet = DomainEvent<
  'SessionTitleSet',
  { sessionId: string; title: string; previousTitle: string; at: string }
>;

/** `reason` is null when none was given (plain JSON: no `undefined` in stored events). */
export type SessionStopped = DomainEvent<
  'SessionStopped',
  { sessionId: string; reason: string | null; at: string }
>;

export type SessionResumed = DomainEvent<'SessionResumed', { sessionId: string; at: string }>;

export type SessionEvent = SessionCreated | SessionTitleSet | SessionStopped | SessionResumed;

export const SESSION_EVENT_TYPES: readonly SessionEvent['type'][] = [
  'SessionCreated',
  'SessionTitleSet',
  'SessionStopped',
  'SessionResumed',
];

/** Narrows an event read from a store (type is only a string there) to a session event. */
export function isSessionEvent(event: { type: string; data: unknown }): event is SessionEvent {
  return (SESSION_EVENT_TYPES as readonly string[]).includes(event.type);
}
