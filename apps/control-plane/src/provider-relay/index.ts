export { ProviderRelayModule } from './provider-relay.module';
export { ProviderRelay } from './provider-relay.service';
export { PLACEHOLDER_KEY } from './provider-credentials';
// The sandbox API's agents reach their model provider with the sandbox's own key (sandboxes/).
export { relayToProvider, type ProviderTarget } from './relay';
export { anthropicAuth, openAiAuth, type CredentialValue } from './provider-credentials';
