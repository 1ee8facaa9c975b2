import type * as http from 'node:http';
import { Injectable } from '@nestjs/common';

/** Who is on the other end of an edge connection: always the box whose socket it came in on. */
export interface EdgeCaller {
  sessionId: string;
}

/**
 * Answers one origin-form request under its prefix. `subPath` is the rest of the request's
 * path after the prefix, with the query (`/v1/messages?beta=true`; `/` when nothing is left).
 * A handler that throws before answering gets a 502 written for it.
 */
export type EdgeRouteHandler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  caller: EdgeCaller,
  subPath: string,
) => void | Promise<void>;

const PREFIX = /^(\/[A-Za-z0-9._~-]+)+$/;

/**
 * The relays on a box's edge (`/provider/anthropic`, `/git`, …): modules add their prefix at
 * init (`onModuleInit`); the edge server sends every origin-form request to the longest prefix
 * that matches it on a segment boundary.
 */
@Injectable()
export class EdgeRoutes {
  private readonly routes = new Map<string, EdgeRouteHandler>();

  add(prefix: string, handler: EdgeRouteHandler): void {
    if (!PREFIX.test(prefix)) {
      throw new Error(
        `an edge route prefix is /segment[/segment…] without a trailing /, got ${prefix}`,
      );
    }
    if (this.routes.has(prefix)) throw new Error(`the edge route ${prefix} is registered twice`);
    this.routes.set(prefix, handler);
  }

  /** The handler for an origin-form target (`/provider/anthropic/v1/messages?x=1`), if any. */
  match(target: string): { handler: EdgeRouteHandler; subPath: string } | null {
    let best: { prefix: string; handler: EdgeRouteHandler } | null = null;
    for (const [prefix, handler] of this.routes) {
      if (!target.startsWith(prefix)) continue;
      const next = target.charAt(prefix.length);
      if (next !== '' && next !== '/' && next !== '?') continue;
      if (!best || prefix.length > best.prefix.length) best = { prefix, handler };
    }
    if (!best) return null;
    const rest = target.slice(best.prefix.length);
    const subPath = rest === '' ? '/' : rest.startsWith('?') ? `/${rest}` : rest;
    return { handler: best.handler, subPath };
  }

  prefixes(): string[] {
    return [...this.routes.keys()].sort();
  }
}
