import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { SidebarSession } from '@sessionboxer/projections';

/** Shortest id prefix the tools accept, when it names one session only. */
export const PREFIX_MIN = 6;

/**
 * The session an agent names: its id, or a prefix of 6+ characters that only one session's id
 * starts with. The refusal says which: unknown, too short, or ambiguous (with the candidates).
 */
export function resolveSession(sessions: readonly SidebarSession[], ref: string): SidebarSession {
  const exact = sessions.find((s) => s.id === ref);
  if (exact) return exact;
  if (ref.length < PREFIX_MIN) {
    throw new DomainError(
      ErrorCode.ValidationFailed,
      `session ${JSON.stringify(ref)}: give a session id from sessions_list, or a prefix of at least ${PREFIX_MIN} characters`,
      { field: 'session' },
    );
  }
  const matches = sessions.filter((s) => s.id.startsWith(ref.toLowerCase()));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) {
    throw new DomainError(
      ErrorCode.NotFound,
      `no session's id starts with ${ref}; see sessions_list`,
      {
        field: 'session',
      },
    );
  }
  const names = matches.map((s) => `${s.id} (“${s.title}”)`).join(', ');
  throw new DomainError(
    ErrorCode.ValidationFailed,
    `${ref} is the start of ${matches.length} sessions' ids: ${names}; give more of the id`,
    { field: 'session' },
  );
}
