export * from './ssh-terminal.commands';
export * from './ssh-terminal.events';
export * from './ssh-terminal.decider';
export * from './key-tokens';
