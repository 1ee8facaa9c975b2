export * from './sandbox.limits';
export * from './sandbox.refusals';
export * from './sandbox.events';
export * from './sandbox.commands';
export * from './sandbox.state';
export * from './sandbox.cost';
export * from './sandbox.decider';
export * from './sandbox-names.decider';
export * from './sandbox.agents';
export * from './sandbox.desktop';
export { isoMs } from './iso-time';
export {
  SECRET_NAME_PATTERN,
  validMetadata,
  validSandboxName,
  validSecretNames,
} from './sandbox.validation';
