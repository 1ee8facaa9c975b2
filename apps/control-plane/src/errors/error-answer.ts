import type { Logger } from '@nestjs/common';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { ConcurrencyError, IdempotencyError, InvalidAppendError } from '@sessionboxer/event-store';
import { ReadModelLagError } from '@sessionboxer/projections';
import { ForgeError, InvalidPrRefError, type ForgeErrorCode } from '../pull-requests';

/** An error as a box or an MCP client sees it: a code of ErrorCode and a message saying why. */
export interface ErrorAnswer {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
  /** An unexpected failure (a bug or a broken dependency), not a refusal. */
  internal?: true;
}

/**
 * The transport-neutral half of the error mapping (HTTP adds a status from errorCodeToHttp).
 * Anything unexpected is logged here and answered without its internals.
 */
export function toErrorAnswer(e: unknown, logger?: Pick<Logger, 'error'>): ErrorAnswer {
  if (e instanceof DomainError) return { code: e.code, message: e.message, details: e.details };
  if (e instanceof ConcurrencyError || e instanceof IdempotencyError) {
    return { code: ErrorCode.Conflict, message: e.message };
  }
  if (e instanceof ReadModelLagError) {
    return {
      code: ErrorCode.Unavailable,
      message: `the change was recorded, but the read models have not caught up: ${e.message}`,
      details: { reason: e.reason, position: e.position },
    };
  }
  if (e instanceof InvalidAppendError)
    return { code: ErrorCode.ValidationFailed, message: e.message };
  if (e instanceof ForgeError) return { code: forgeCode(e.code), message: e.message };
  if (e instanceof InvalidPrRefError)
    return { code: ErrorCode.ValidationFailed, message: e.message };
  logger?.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  return {
    code: ErrorCode.Unavailable,
    message: 'internal error; the control plane log has the details',
    internal: true,
  };
}

function forgeCode(code: ForgeErrorCode): ErrorCode {
  switch (code) {
    case 'NOT_FOUND':
      return ErrorCode.NotFound;
    case 'UNAUTHORIZED':
      return ErrorCode.Forbidden;
    case 'RATE_LIMITED':
    case 'UNAVAILABLE':
    case 'BAD_RESPONSE':
      return ErrorCode.Unavailable;
  }
}
