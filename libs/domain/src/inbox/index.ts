export * from './inbox.decider';
