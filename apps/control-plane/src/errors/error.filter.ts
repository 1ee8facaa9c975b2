import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { ConcurrencyError, IdempotencyError, InvalidAppendError } from '@sessionboxer/event-store';
import { ReadModelLagError } from '@sessionboxer/projections';
import type { Response } from 'express';
import { errorCodeToHttp, type ErrorBody } from './error-mapping';

const httpStatusToCode: Partial<Record<number, ErrorCode>> = {
  [HttpStatus.BAD_REQUEST]: ErrorCode.ValidationFailed,
  [HttpStatus.NOT_FOUND]: ErrorCode.NotFound,
  [HttpStatus.FORBIDDEN]: ErrorCode.Forbidden,
  [HttpStatus.UNAUTHORIZED]: ErrorCode.Forbidden,
  [HttpStatus.CONFLICT]: ErrorCode.Conflict,
};

/** Turns every error into an ErrorBody; an unexpected one is logged and answered as a 500. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const body = this.toBody(exception);
    host.switchToHttp().getResponse<Response>().status(body.statusCode).json(body);
  }

  private toBody(e: unknown): ErrorBody {
    if (e instanceof DomainError) {
      return {
        statusCode: errorCodeToHttp[e.code],
        error: e.code,
        message: e.message,
        details: e.details,
      };
    }
    if (e instanceof ConcurrencyError || e instanceof IdempotencyError) {
      return { statusCode: HttpStatus.CONFLICT, error: ErrorCode.Conflict, message: e.message };
    }
    if (e instanceof InvalidAppendError) {
      return {
        statusCode: HttpStatus.BAD_REQUEST,
        error: ErrorCode.ValidationFailed,
        message: e.message,
      };
    }
    if (e instanceof ReadModelLagError) {
      // The command took effect; only reading it back failed. Say so, so nobody retries blindly.
      return {
        statusCode: HttpStatus.SERVICE_UNAVAILABLE,
        error: ErrorCode.Unavailable,
        message: `the change was recorded, but the read models have not caught up: ${e.message}`,
        details: { reason: e.reason, position: e.position },
      };
    }
    if (e instanceof HttpException) return this.fromHttp(e);
    this.logger.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    return {
      statusCode: HttpStatus.INTERNAL_SERVER_ERROR,
      error: ErrorCode.Unavailable,
      message: 'internal error; the server log has the details',
    };
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
