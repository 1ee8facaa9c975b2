export * from './settings.state';
export * from './settings.commands';
export * from './settings.events';
export * from './settings.decider';
export * from './settings.public';
