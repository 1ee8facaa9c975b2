import { BadRequestException, HttpException, HttpStatus } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain';
import express, { type RequestHandler } from 'express';

/** A request whose JSON body was read, with its bytes as they arrived. */
export interface RawBodyRequest {
  rawBody?: Buffer;
}

/** The largest JSON body the API reads. */
export const BODY_LIMIT = '1mb';

/**
 * express.json, with its failures turned into answers that say what was wrong with the body
 * (Nest would pass on only the parser's bare message, or a 500 for an oversized body).
 */
export function jsonBody(): RequestHandler {
  // The raw bytes are kept for endpoints that verify a signature over them (GitHub webhooks).
  const parse = express.json({
    limit: BODY_LIMIT,
    verify: (req, _res, buf) => {
      (req as RawBodyRequest).rawBody = Buffer.from(buf);
    },
  });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err === undefined || err === null) return next();
      const type = (err as { type?: unknown }).type;
      const message = err instanceof Error ? err.message : 'unreadable body';
      if (type === 'entity.too.large') {
        return next(
          new HttpException(
            {
              error: ErrorCode.ValidationFailed,
              message: `the request body is larger than ${BODY_LIMIT}`,
            },
            HttpStatus.PAYLOAD_TOO_LARGE,
          ),
        );
      }
      next(
        new BadRequestException({
          error: ErrorCode.ValidationFailed,
          message: `the request body is not valid JSON: ${message}`,
        }),
      );
    });
}
