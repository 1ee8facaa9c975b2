export * from './pull-request.commands';
export * from './pull-request.events';
export * from './pull-request.state';
export * from './pull-request.decider';
export * from './pr-id';
export * from './pr-checks';
export { PR_ITEM_BODY_MAX, PR_ITEMS_MAX } from './pull-request.validation';
