import { Module, type OnModuleDestroy } from '@nestjs/common';
import { BoxesModule } from '../boxes';
import { EdgeRoutes } from './edge-routes';
import { EDGE_PROXY, EdgeSockets } from './edge-sockets';
import { EgressController } from './egress.controller';
import { EgressGuard } from './egress-guard';
import { EgressPolicyService } from './egress-policy.service';
import { EgressProxy } from './egress-proxy';
import { EgressRecorder } from './egress-recorder';
import { EgressResolver } from './egress-resolver';

/**
 * The box's edge: its `edge.sock` (piped from 127.0.0.1:7001 in the box by the daemon), the
 * route registry other modules add relays to (`EdgeRoutes`), and the egress proxy with its
 * allow lists (global and per session), address checks and records.
 */
@Module({
  imports: [BoxesModule],
  controllers: [EgressController],
  providers: [
    EdgeRoutes,
    EdgeSockets,
    EgressResolver,
    EgressGuard,
    EgressPolicyService,
    EgressRecorder,
    EgressProxy,
    { provide: EDGE_PROXY, useExisting: EgressProxy },
  ],
  exports: [EdgeRoutes, EgressResolver],
})
export class EgressModule implements OnModuleDestroy {
  constructor(
    private readonly proxy: EgressProxy,
    private readonly recorder: EgressRecorder,
  ) {}

  async onModuleDestroy(): Promise<void> {
    this.proxy.close();
    await this.recorder.flushed();
  }
}
