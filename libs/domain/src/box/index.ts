export * from './box.commands';
export * from './box.events';
export * from './box.state';
export * from './box.decider';
