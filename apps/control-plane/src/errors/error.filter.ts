import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain';
import type { Response } from 'express';
import { toErrorAnswer } from './error-answer';
import { errorCodeToHttp, type ErrorBody } from './error-mapping';

const httpStatusToCode: Partial<Record<number, ErrorCode>> = {
  [HttpStatus.BAD_REQUEST]: ErrorCode.ValidationFailed,
  [HttpStatus.NOT_FOUND]: ErrorCode.NotFound,
  [HttpStatus.FORBIDDEN]: ErrorCode.Forbidden,
  [HttpStatus.UNAUTHORIZED]: ErrorCode.Unauthenticated,
  [HttpStatus.TOO_MANY_REQUESTS]: ErrorCode.TooManyAttempts,
  [HttpStatus.CONFLICT]: ErrorCode.Conflict,
};

/** Turns every error into an ErrorBody; an unexpected one is logged and answered as a 500. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const body = this.toBody(exception);
    const res = host.switchToHttp().getResponse<Response>();
    // A refusal that says when to come back says it in HTTP's words too (RFC 9110 §10.2.3).
    const retryAfter = body.details?.retryAfterSeconds;
    if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
    res.status(body.statusCode).json(body);
  }

  private toBody(e: unknown): ErrorBody {
    if (e instanceof HttpException) return this.fromHttp(e);
    const answer = toErrorAnswer(e, this.logger);
    const statusCode = answer.internal
      ? HttpStatus.INTERNAL_SERVER_ERROR
      : errorCodeToHttp[answer.code];
    return { statusCode, error: answer.code, message: answer.message, details: answer.details };
  }

  private fromHttp(e: HttpException): ErrorBody {
    const status = e.getStatus();
    const res = e.getResponse();
    if (typeof res === 'object' && res !== null && 'error' in res && 'message' in res) {
      const r = res as Partial<ErrorBody>;
      if (typeof r.error === 'string' && Object.values(ErrorCode).includes(r.error)) {
        return {
          statusCode: status,
          error: r.error,
          message: String(r.message),
          details: r.details,
        };
      }
    }
    const code = httpStatusToCode[status] ?? ErrorCode.Unavailable;
    return { statusCode: status, error: code, message: e.message };
  }
}
