import * as http from 'node:http';
import { Injectable, Logger, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { forwardHeaders } from '../common/hop-headers';
import type { RawBodyRequest } from '../errors/json-body';
import { BoxOwnership } from './box-ownership';
import { FORWARDED_HEADER } from './owner-rpc';

const SESSION_ROUTE = /^\/api\/sessions\/([0-9a-f-]{36})(?:\/|$|\?)/;

/**
 * A request about a session whose box another live instance runs is answered by that instance:
 * it is forwarded as it came (the same sign-in works there, sign-ins being shared), so what
 * needs the box (its files, diff, Terminals, snapshots, stop and resume) runs where the box is,
 * and a write is read back where it was made. A forwarded request is never forwarded again.
 */
@Injectable()
export class ForwardToOwner implements NestMiddleware {
  private readonly logger = new Logger('Cluster');

  constructor(private readonly ownership: BoxOwnership) {}

  use(req: Request & RawBodyRequest, res: Response, next: NextFunction): void {
    const id = SESSION_ROUTE.exec(req.originalUrl)?.[1];
    if (!id || req.headers[FORWARDED_HEADER] !== undefined) return next();
    this.ownership.remoteOwner(id).then(
      (owner) => (owner ? this.forward(req, res, owner.url) : next()),
      () => next(),
    );
  }

  private forward(req: Request & RawBodyRequest, res: Response, base: string): void {
    const target = new URL(req.originalUrl, base);
    const headers = forwardHeaders(req.headers);
    headers[FORWARDED_HEADER] = this.ownership.instance;
    // A JSON body was read already (its bytes kept as they came); any other is still a stream.
    const body = req.rawBody;
    if (body) headers['content-length'] = String(body.length);
    const upstream = http.request(
      target,
      { method: req.method, headers, timeout: 120_000 },
      (answer) => {
        res.status(answer.statusCode ?? 502);
        for (const [name, value] of Object.entries(forwardHeaders(answer.headers))) {
          if (value !== undefined) res.setHeader(name, value);
        }
        answer.pipe(res);
      },
    );
    upstream.on('error', (e) => {
      this.logger.warn(`forwarding ${req.method} ${req.originalUrl} to ${base}: ${e.message}`);
      if (!res.headersSent) {
        res.status(503).json({
          statusCode: 503,
          error: 'UNAVAILABLE',
          message: "the instance that runs this session's box did not answer; try again",
        });
      } else res.destroy();
    });
    if (body) upstream.end(body);
    else if (req.readableEnded) upstream.end();
    else req.pipe(upstream);
  }
}
