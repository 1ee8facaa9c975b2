import { HttpStatus } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain';

/**
 * The one place where an error code becomes a transport answer. HTTP now; the WebSocket
 * gateway and the MCP servers read the same table so a refusal says the same thing everywhere.
 */
export const errorCodeToHttp: Record<ErrorCode, HttpStatus> = {
  [ErrorCode.ValidationFailed]: HttpStatus.BAD_REQUEST,
  [ErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [ErrorCode.AlreadyExists]: HttpStatus.CONFLICT,
  [ErrorCode.InvalidState]: HttpStatus.CONFLICT,
  [ErrorCode.Forbidden]: HttpStatus.FORBIDDEN,
  [ErrorCode.LimitReached]: HttpStatus.CONFLICT,
  [ErrorCode.Conflict]: HttpStatus.CONFLICT,
  [ErrorCode.Unavailable]: HttpStatus.SERVICE_UNAVAILABLE,
  [ErrorCode.Unauthenticated]: HttpStatus.UNAUTHORIZED,
  [ErrorCode.TooManyAttempts]: HttpStatus.TOO_MANY_REQUESTS,
};

/** The body of every error answer of the HTTP API. */
export interface ErrorBody {
  statusCode: number;
  error: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}
