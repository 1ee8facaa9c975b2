import { FILE_MAX_BYTES } from '@sessionboxer/domain/sandbox';
import express, { type RequestHandler } from 'express';
import { jsonValueProblem } from '../errors/json-policy';

/** A 64 MB file as base64 in JSON: 4/3 of it, and room for the rest of the call. */
export const SANDBOX_API_BODY_MAX_BYTES = Math.ceil((FILE_MAX_BYTES * 4) / 3) + 1024 * 1024;

/**
 * JSON bodies of `/mcp` and `/v1/…`, which carry whole files (the rest of the API keeps its
 * 1 MB): mounted before the app's own JSON parser, which then leaves them be. The same depth
 * and Unicode policy applies; a refusal is a JSON answer that says what was wrong.
 */
export function sandboxApiBody(): RequestHandler {
  const parse = express.json({ limit: SANDBOX_API_BODY_MAX_BYTES });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      const problem = err ? null : jsonValueProblem(req.body as unknown);
      if (!err && !problem) return next();
      const tooLarge = (err as { type?: unknown } | undefined)?.type === 'entity.too.large';
      const message =
        problem?.message ??
        (tooLarge
          ? `the request body is larger than ${SANDBOX_API_BODY_MAX_BYTES} bytes`
          : `the request body is not valid JSON: ${err instanceof Error ? err.message : 'unreadable'}`);
      res.status(tooLarge ? 413 : 400).json({ error: 'invalid_argument', message });
    });
}
