import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import { BOX_GATEWAY_PATH, type BoxSockets } from './box-sockets';

/**
 * Nest's ws adapter, except that the box gateway gets the server fed by the boxes' own Unix
 * sockets instead of a path on the public HTTP server (boxes have no route to that one).
 */
export class BoxWsAdapter extends WsAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly boxSockets: BoxSockets,
  ) {
    super(app);
  }

  override create(port: number, options?: Record<string, unknown> & { path?: string }): unknown {
    if (options?.path === BOX_GATEWAY_PATH) return this.boxSockets.server;
    return super.create(port, options as never);
  }
}
