/**
 * Every refusal carries a code from this one enum. apps/control-plane maps each code to its
 * HTTP status, WebSocket answer and MCP tool error in one place; the message says why, so a
 * person or an agent can act on it rather than guess.
 */
export enum ErrorCode {
  ValidationFailed = 'VALIDATION_FAILED',
  NotFound = 'NOT_FOUND',
  AlreadyExists = 'ALREADY_EXISTS',
  InvalidState = 'INVALID_STATE',
  Forbidden = 'FORBIDDEN',
  LimitReached = 'LIMIT_REACHED',
  Conflict = 'CONFLICT',
  Unavailable = 'UNAVAILABLE',
  /** No signed-in person (or a wrong password). */
  Unauthenticated = 'UNAUTHENTICATED',
  /** Too many attempts in a short time; the message says when to try again. */
  TooManyAttempts = 'TOO_MANY_ATTEMPTS',
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}
