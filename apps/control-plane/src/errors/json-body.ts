import { BadRequestException, HttpException, HttpStatus } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain';
import express, { type RequestHandler } from 'express';
import { JSON_MAX_BYTES, jsonSizeProblem, jsonValueProblem, type JsonRefusal } from './json-policy';

/** A request whose JSON body was read, with its bytes as they arrived. */
export interface RawBodyRequest {
  rawBody?: Buffer;
}

function refused(r: JsonRefusal): HttpException {
  const body = {
    error: r.code,
    message: r.message,
    ...(r.field === undefined ? {} : { details: { field: r.field } }),
  };
  return r.status === 413
    ? new HttpException(body, HttpStatus.PAYLOAD_TOO_LARGE)
    : new BadRequestException(body);
}

/**
 * express.json under the one JSON policy (json-policy.ts): too large is a 413, too deep or
 * ill-formed Unicode a 400 that says which, all before any validator sees the body. Its own
 * failures become answers that say what was wrong with the body (Nest would pass on only the
 * parser's bare message, or a 500 for an oversized body).
 */
export function jsonBody(): RequestHandler {
  // The raw bytes are kept for endpoints that verify a signature over them (GitHub webhooks).
  const parse = express.json({
    limit: JSON_MAX_BYTES,
    verify: (req, _res, buf) => {
      (req as RawBodyRequest).rawBody = Buffer.from(buf);
    },
  });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err === undefined || err === null) {
        const problem = jsonValueProblem(req.body as unknown);
        return next(problem ? refused(problem) : undefined);
      }
      const type = (err as { type?: unknown }).type;
      if (type === 'entity.too.large') {
        const length = (err as { length?: unknown }).length;
        const bytes = typeof length === 'number' ? length : JSON_MAX_BYTES + 1;
        return next(refused(jsonSizeProblem(bytes, 'the request body') as JsonRefusal));
      }
      const message = err instanceof Error ? err.message : 'unreadable body';
      next(
        new BadRequestException({
          error: ErrorCode.ValidationFailed,
          message: `the request body is not valid JSON: ${message}`,
        }),
      );
    });
}
