import type { IncomingMessage } from 'node:http';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { MessageMappingProperties } from '@nestjs/websockets';
import { EMPTY, type Observable } from 'rxjs';
import type { WebSocket } from 'ws';
import { AuthService } from '../auth';
import { readFrame } from '../errors/socket-frame';
import { BOX_GATEWAY_PATH, type BoxSockets } from '../boxes';

type VerifyClient = (
  info: { req: IncomingMessage },
  done: (ok: boolean, code?: number, message?: string) => void,
) => void;

/**
 * Nest's ws adapter, except that the box gateway gets the server fed by the boxes' own Unix
 * sockets instead of a path on the public HTTP server (boxes have no route to that one), and
 * every socket on the public server (the web UI's) needs a signed-in person at its handshake:
 * without one the upgrade is answered 401 and no socket opens (unless its gateway says
 * `selfAuthenticated`: it takes a person or a sandbox token and checks them itself).
 *
 * Every frame of both sockets is read under the one JSON policy (errors/json-policy.ts) before
 * a handler sees it. Nest would drop a frame it cannot parse or route without a word (and its
 * parser knows no limits); here the sender gets an `error` frame saying why, and the socket
 * stays open.
 */
export class BoxWsAdapter extends WsAdapter {
  private readonly frameLogger = new Logger('SocketFrames');

  constructor(
    private readonly app: INestApplicationContext,
    private readonly boxSockets: BoxSockets,
  ) {
    super(app);
  }

  override create(
    port: number,
    options?: Record<string, unknown> & { path?: string; selfAuthenticated?: boolean },
  ): unknown {
    if (options?.path === BOX_GATEWAY_PATH) return this.boxSockets.server;
    if (options?.selfAuthenticated) {
      // Its gateway checks a person or a token itself (the sandbox watch page's socket).
      const { selfAuthenticated: _, ...rest } = options;
      return super.create(port, rest as never);
    }
    const auth = this.app.get(AuthService);
    const verifyClient: VerifyClient = ({ req }, done) => {
      auth.identify(req.headers).then(
        (who) => (who === null ? done(false, 401, 'sign in first') : done(true)),
        () => done(false, 503, 'sign-ins cannot be checked now'),
      );
    };
    return super.create(port, { ...options, verifyClient } as never);
  }

  /**
   * A gateway without message handlers (the desktop view's binary RFB relay) reads its
   * frames itself: none of them is JSON, and each would otherwise be answered with an error.
   */
  override bindMessageHandlers(
    client: WebSocket,
    handlers: MessageMappingProperties[],
    transform: (data: unknown) => Observable<unknown>,
  ): void {
    if (handlers.length === 0) return;
    super.bindMessageHandlers(client, handlers, transform);
  }

  /** `message` is ws's MessageEvent: its target is the socket, its data the frame's text. */
  override bindMessageHandler(
    message: { data: unknown; target: WebSocket },
    handlers: Map<string, MessageMappingProperties>,
    transform: (data: unknown) => Observable<unknown>,
  ): Observable<unknown> {
    const frame = readFrame(message.data, [...handlers.keys()]);
    if (!frame.ok) {
      const client = message.target;
      if (client.readyState === client.OPEN)
        client.send(JSON.stringify({ event: 'error', data: frame.error }));
      return EMPTY;
    }
    try {
      const handler = handlers.get(frame.event) as MessageMappingProperties;
      return transform(handler.callback(frame.data, frame.event));
    } catch (e) {
      // A handler that throws at once must not take the socket's other frames with it.
      this.frameLogger.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
      return EMPTY;
    }
  }
}
