import { DomainError, ErrorCode, HARNESS_NAMES, type HarnessName } from '@sessionboxer/domain';

/** A session's agent runs as the harness its provider names. */
export function harnessOf(provider: string): HarnessName {
  const found = HARNESS_NAMES.find((h) => h === provider);
  if (found === undefined) {
    throw new DomainError(
      ErrorCode.ValidationFailed,
      `this session's provider ${JSON.stringify(provider)} has no agent harness here; the harnesses are ${HARNESS_NAMES.join(', ')} (scripted plays scripts, no model)`,
      { field: 'provider', code: 'unknown_harness' },
    );
  }
  return found;
}

/** A session's own agent conversation has the session's id (its stream: conversation-<id>). */
export function sessionConversationId(sessionId: string): string {
  return sessionId;
}
