export * from './host-pattern';
export * from './egress-policy';
export * from './egress-log';
