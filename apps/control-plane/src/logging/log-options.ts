import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { Options } from 'pino-http';
import type { OperationsConfig } from '../operations-config';

/** Headers whose values never reach a log line. */
export const REDACTED_HEADERS = ['authorization', 'cookie', 'x-api-key', 'proxy-authorization'];

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * pino-http's options: one line per request (method, url, status, ms, request id), the secret
 * headers redacted, and every line passed through `mask` (the credential vault's masker) before
 * it is written, so a credential value that reaches a message anyhow is masked.
 */
export function logOptions(
  ops: OperationsConfig,
  mask: (line: string) => string,
): Options<IncomingMessage, ServerResponse> {
  return {
    level: ops.logLevel,
    redact: {
      paths: [...REDACTED_HEADERS.map((h) => `req.headers["${h}"]`), 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    hooks: { streamWrite: mask },
    // Lines logged while a request runs (its commands) carry its id as `reqId`, not all of `req`.
    quietReqLogger: true,
    // A caller's own request id (a proxy's) when it is plain, else a new one; sent back.
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('x-request-id', id);
      return id;
    },
    customSuccessMessage: (req, res, ms) =>
      `${req.method} ${req.url} ${res.statusCode} ${Math.round(ms)} ms`,
    customErrorMessage: (req, res) => `${req.method} ${req.url} ${res.statusCode}`,
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
  };
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/**
 * Pretty text for a person at a terminal: `12:00:01 INFO [Context] message`, the rest of the
 * line's fields after it as JSON. Reads pino's lines; one that is not JSON passes as it is.
 */
export function prettyStream(out: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line) out.write(`${prettyLine(line)}\n`);
      }
      done();
    },
  });
}

export function prettyLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { level, time, msg, context, pid: _pid, hostname: _host, ...rest } = entry;
  const at = typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '';
  const name = LEVEL_NAMES[level as number] ?? String(level);
  const where = typeof context === 'string' ? ` [${context}]` : '';
  const more = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
  return `${at} ${name}${where} ${typeof msg === 'string' ? msg : JSON.stringify(msg ?? '')}${more}`;
}
