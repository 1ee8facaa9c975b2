export * from './ssh-key.decider';
