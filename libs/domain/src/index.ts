export * from './kernel';
export * from './session';
export * from './box';
export * from './pull-request';
export * from './settings';
export * from './conversation';
export * from './credentials';
export * from './session-policy';
