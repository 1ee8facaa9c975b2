import type { IncomingMessage } from 'node:http';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this the upload is cut off instead of drained to reach the 413 answer. */
const MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES;

export class BodyTooLarge extends Error {}

/**
 * The request body as text, at most `limit` bytes. A larger body is still read to its end
 * (up to a point) so the client receives the 413 instead of a reset connection.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > MAX_DRAIN_BYTES) req.destroy();
    });
    req.on('end', () => {
      if (size > limit) reject(new BodyTooLarge(`the body is over ${limit} bytes`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client went away before sending its body'));
    });
  });
}
