import { Global, Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { BoxOwnership } from './box-ownership';
import { ForwardToOwner } from './forward-to-owner.middleware';
import { InstanceRegistry } from './instance-registry';
import { InternalRpcController } from './internal-rpc.controller';
import { OwnerRpc } from './owner-rpc';

/**
 * Several control-plane instances on one event store (docs/SCALING.md): who is alive, which
 * instance owns which box, and the forwarding of what only a box's owner can do.
 */
@Global()
@Module({
  controllers: [InternalRpcController],
  providers: [InstanceRegistry, BoxOwnership, OwnerRpc, ForwardToOwner],
  exports: [InstanceRegistry, BoxOwnership, OwnerRpc],
})
export class ClusterModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(ForwardToOwner).forRoutes('api/sessions/*path');
  }
}
