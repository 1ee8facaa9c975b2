export * from './session-policy';
