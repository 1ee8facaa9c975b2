export { GatewayModule } from './gateway.module';
export { BoxWsAdapter } from './box-ws.adapter';
export { CallService } from './call.service';
