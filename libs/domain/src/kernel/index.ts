export * from './actor';
export * from './decider';
export * from './errors';
