export { EgressModule } from './egress.module';
export { EdgeRoutes, type EdgeCaller, type EdgeRouteHandler } from './edge-routes';
export { answer as edgeAnswer } from './edge-answers';
export { EgressResolver, type EgressLookup, type ResolvedAddress } from './egress-resolver';
export { classifyAddress } from './address-check';
export { notAllowed } from './egress-guard';
