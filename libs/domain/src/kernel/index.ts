export * from './actor';
export * from './decider';
export * from './errors';
export * from './id-set';
