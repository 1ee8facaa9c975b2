export * from './ssh-endpoint.decider';
export {
  HOST_KEY_FINGERPRINT,
  SSH_ENDPOINT_NAME_MAX_LENGTH,
  validFingerprint,
  type SshEndpointFields,
} from './ssh-endpoint.validation';
