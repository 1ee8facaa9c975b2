export * from './sandbox-token.limits';
export * from './sandbox-token.events';
export * from './sandbox-token.commands';
export * from './sandbox-token.decider';
export { validAbilities, validExpiresIn, validOrigins } from './sandbox-token.validation';
export { isoFromMs } from './iso-from-ms';
