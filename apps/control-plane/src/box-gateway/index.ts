export { GatewayModule } from './gateway.module';
export { BoxWsAdapter } from './box-ws.adapter';
export { CallService, type CallOutcome } from './call.service';
