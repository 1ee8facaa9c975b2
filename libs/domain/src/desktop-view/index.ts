export * from './desktop-view.decider';
