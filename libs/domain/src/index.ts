export * from './kernel';
export * from './session';
