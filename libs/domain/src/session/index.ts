export * from './session.commands';
export * from './session.events';
export * from './session.state';
export * from './session.decider';
export { TITLE_MAX_LENGTH } from './session.validation';
