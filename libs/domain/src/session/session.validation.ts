import { validModelName } from '../conversation/conversation.validation';
import { exactId, invalid, oneOf, text } from '../kernel/validation';
import { validRepoName } from '../repository/repository.validation';
import {
  HARNESS_NAMES,
  SESSION_REPOS_MAX,
  SESSION_ENVIRONMENTS,
  STOP_REASON_MAX_LENGTH,
  TITLE_MAX_LENGTH,
  type HarnessName,
  type SessionEnvironment,
} from '../limits';
import type { ForkOrigin, SessionRef } from './session.commands';

export function validTitle(title: unknown): string {
  return text(title, 'title', TITLE_MAX_LENGTH);
}

/** Ids are taken as given (no trimming): they name streams, so a changed id is another session. */
export function validId(id: unknown, field: string): string {
  return exactId(id, field);
}

/** The model the session's agent starts with; its conversation checks it the same way. */
export function validModel(value: unknown, field = 'model'): string {
  return validModelName(value, field);
}

/**
 * A session's provider names the harness its box runs its agent with (harnessOf in the
 * control plane, harnessAdapters in the box), so the harnesses are the one list of providers:
 * the session's, the settings' default and a schedule's new sessions' alike.
 */
export function validProvider(value: unknown, field = 'provider'): HarnessName {
  return oneOf(value, field, HARNESS_NAMES);
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
  return text(reason, 'reason', STOP_REASON_MAX_LENGTH);
}

/** A session's repositories by name: at most SESSION_REPOS_MAX, each once. */
export function validSessionRepos(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid('repos', 'repos must be a list of repository names');
  if (value.length > SESSION_REPOS_MAX) {
    throw invalid(
      'repos',
      `repos must have at most ${SESSION_REPOS_MAX} items (it has ${value.length})`,
    );
  }
  const names = value.map((r: unknown, i) => validRepoName(r, `repos[${i}]`));
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw invalid('repos', `repos names ${twice} twice`);
  return names;
}

/** The session's own branch in its repositories: `sessionboxer/` and its id's first 8 characters. */
export function sessionBranch(sessionId: string): string {
  return `sessionboxer/${sessionId.slice(0, 8).replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
