export * from './schedule.commands';
export * from './schedule.events';
export * from './schedule.decider';
export { scheduleAction, scheduleText } from './schedule.validation';
