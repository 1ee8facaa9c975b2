import type { IncomingMessage } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import { AuthService } from '../auth/auth.service';
import { BOX_GATEWAY_PATH, type BoxSockets } from './box-sockets';

type VerifyClient = (
  info: { req: IncomingMessage },
  done: (ok: boolean, code?: number, message?: string) => void,
) => void;

/**
 * Nest's ws adapter, except that the box gateway gets the server fed by the boxes' own Unix
 * sockets instead of a path on the public HTTP server (boxes have no route to that one), and
 * every socket on the public server (the web UI's) needs a signed-in person at its handshake:
 * without one the upgrade is answered 401 and no socket opens.
 */
export class BoxWsAdapter extends WsAdapter {
  constructor(
    private readonly app: INestApplicationContext,
    private readonly boxSockets: BoxSockets,
  ) {
    super(app);
  }

  override create(port: number, options?: Record<string, unknown> & { path?: string }): unknown {
    if (options?.path === BOX_GATEWAY_PATH) return this.boxSockets.server;
    const auth = this.app.get(AuthService);
    const verifyClient: VerifyClient = ({ req }, done) =>
      auth.identify(req.headers) === null ? done(false, 401, 'sign in first') : done(true);
    return super.create(port, { ...options, verifyClient } as never);
  }
}
