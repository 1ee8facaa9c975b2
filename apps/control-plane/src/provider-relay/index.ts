export { ProviderRelayModule } from './provider-relay.module';
export { ProviderRelay } from './provider-relay.service';
export { PLACEHOLDER_KEY } from './provider-credentials';
