export * from './org';
