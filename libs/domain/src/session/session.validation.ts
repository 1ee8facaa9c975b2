import { DomainError, ErrorCode } from '../kernel';
import {
  SESSION_ENVIRONMENTS,
  type ForkOrigin,
  type SessionEnvironment,
  type SessionRef,
} from './session.commands';

export const TITLE_MAX_LENGTH = 200;
const REASON_MAX_LENGTH = 500;
const ID_MAX_LENGTH = 200;
const NAME_MAX_LENGTH = 100;
/** C0/C1 controls and the Unicode line/paragraph separators: each would break a one-line title. */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;

function invalid(field: string, message: string): DomainError {
  return new DomainError(ErrorCode.ValidationFailed, message, { field });
}

/**
 * Trimmed, non-empty, at most `max` characters (code points, so an emoji counts once), no
 * control characters. Commands arrive as JSON from outside, so the type is checked too.
 */
function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length === 0) throw invalid(field, `${field} must not be empty`);
  const length = [...trimmed].length;
  if (length > max) {
    throw invalid(field, `${field} must be at most ${max} characters (it has ${length})`);
  }
  if (CONTROL.test(trimmed)) {
    throw invalid(field, `${field} must not contain control characters such as newlines or tabs`);
  }
  return trimmed;
}

export function validTitle(title: unknown): string {
  return text(title, 'title', TITLE_MAX_LENGTH);
}

/** Ids are taken as given (no trimming): they name streams, so a changed id is another session. */
export function validId(id: unknown, field: string): string {
  const checked = text(id, field, ID_MAX_LENGTH);
  if (checked !== id) throw invalid(field, `${field} must not start or end with whitespace`);
  return checked;
}

export function validName(value: unknown, field: 'provider' | 'model'): string {
  return text(value, field, NAME_MAX_LENGTH);
}

export function validEnvironment(value: unknown): SessionEnvironment {
  const found = SESSION_ENVIRONMENTS.find((e) => e === value);
  if (found === undefined) {
    throw invalid(
      'environment',
      `environment must be one of ${SESSION_ENVIRONMENTS.join(', ')} (got ${JSON.stringify(value)})`,
    );
  }
  return found;
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
