import { Module } from '@nestjs/common';
import { BoxesModule } from '../boxes';
import { answer, answerSocket } from './edge-answers';
import { EdgeRoutes } from './edge-routes';
import type { EdgeProxy } from './edge-server';
import { EDGE_PROXY, EdgeSockets } from './edge-sockets';

const NO_PROXY_YET: EdgeProxy = {
  tunnel: (_caller, _authority, socket) =>
    answerSocket(socket, 403, 'the egress proxy is not running: nothing outside is reachable'),
  forward: (_caller, _req, res) =>
    answer(res, 403, 'the egress proxy is not running: nothing outside is reachable'),
};

/**
 * The box's edge: its `edge.sock` (piped from 127.0.0.1:7001 in the box by the daemon), the
 * route registry other modules add relays to (`EdgeRoutes`), and the egress proxy.
 */
@Module({
  imports: [BoxesModule],
  providers: [EdgeRoutes, EdgeSockets, { provide: EDGE_PROXY, useValue: NO_PROXY_YET }],
  exports: [EdgeRoutes],
})
export class EgressModule {}
