import { exactId, invalid, oneOf, text } from '../kernel/validation';
import {
  SESSION_ENVIRONMENTS,
  type ForkOrigin,
  type SessionEnvironment,
  type SessionRef,
} from './session.commands';

export const TITLE_MAX_LENGTH = 200;
const REASON_MAX_LENGTH = 500;
const NAME_MAX_LENGTH = 100;

export function validTitle(title: unknown): string {
  return text(title, 'title', TITLE_MAX_LENGTH);
}

/** Ids are taken as given (no trimming): they name streams, so a changed id is another session. */
export function validId(id: unknown, field: string): string {
  return exactId(id, field);
}

export function validName(value: unknown, field: 'provider' | 'model'): string {
  return text(value, field, NAME_MAX_LENGTH);
}

export function validEnvironment(value: unknown): SessionEnvironment {
  return oneOf(value, 'environment', SESSION_ENVIRONMENTS);
}

/** A session cannot be its own creator or its own fork origin. */
export function validCreatedBy(value: SessionRef | null, sessionId: string): SessionRef | null {
  if (value === null) return null;
  // Missing is refused, not read as null: that would pass an agent's session off as a person's.
  if (typeof value !== 'object')
    throw invalid('createdBy', 'createdBy must be { sessionId } or null');
  const creator = validId(value.sessionId, 'createdBy.sessionId');
  if (creator === sessionId) throw invalid('createdBy', 'a session cannot be created by itself');
  return { sessionId: creator };
}

export function validForkOrigin(value: ForkOrigin | null, sessionId: string): ForkOrigin | null {
  if (value === null) return null;
  if (typeof value !== 'object') {
    throw invalid('forkedFrom', 'forkedFrom must be { sessionId, snapshotId } or null');
  }
  const origin = validId(value.sessionId, 'forkedFrom.sessionId');
  if (origin === sessionId) throw invalid('forkedFrom', 'a session cannot be forked from itself');
  return { sessionId: origin, snapshotId: validId(value.snapshotId, 'forkedFrom.snapshotId') };
}

/** An absent or blank reason is no reason: the event then says null. */
export function validReason(reason: unknown): string | null {
  if (reason === undefined || reason === null) return null;
  if (typeof reason === 'string' && reason.trim().length === 0) return null;
  return text(reason, 'reason', REASON_MAX_LENGTH);
}
