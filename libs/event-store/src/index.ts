export * from './event-store.port';
export * from './stream-name';
export * from './command-handler';
export type { AppendObserver } from './append-observer';
